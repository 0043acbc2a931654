import { DEPLOY_JOB, DEPLOY_JOB_EXPIRE_SECONDS } from './scheduler.ts';
import type { Job } from '../../jobs/job.ts';

/**
 * The durable half of a token's deployment (services/tokenise/scheduler.ts queues it when the
 * deployment is accepted, due after the in-process head start): retried, on any node, until the
 * deployment is settled.
 *
 * `short`: one waiting job per token (the scheduler's singleton key). Not `stately`: a job queued
 * again (the minute's sweep) while another of the same token is active — on a node that died,
 * until its expiry — would fail every fetch of the queue on pg-boss 10's unique index
 * (jobs/chain-follow.ts), holding up every other deployment. Two attempts at one token on two
 * nodes are safe: the database decides (deployment.ts).
 */
export const tokenDeployJob: Job<{ tokenId: string }> = {
  name: DEPLOY_JOB,
  options: { policy: 'short', pollingIntervalSeconds: 1, expireInSeconds: DEPLOY_JOB_EXPIRE_SECONDS },
  worker: ({ runtime: { tokenise } }) => {
    if (!tokenise?.deploys) return undefined;
    return async ({ tokenId }) => {
      // A job never holds the worker long: the queue stops (gracefully, waiting for running
      // jobs) before the scheduler hears of the shutdown, and one slow chain must not hold up
      // other deployments. A long wait belongs to the in-process attempt; the job comes back.
      const outcome = await tokenise.deployJobAttempt(tokenId);
      // pg-boss retries the job later; the transaction may still be mined.
      if (outcome === 'waiting') throw new Error(`Token ${tokenId}: still waiting for its deployment transaction`);
    };
  },
};
