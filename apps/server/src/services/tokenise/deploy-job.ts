import { DEPLOY_JOB } from './scheduler.ts';
import type { Job } from '../../jobs/job.ts';

/**
 * The durable half of a token's deployment (services/tokenise/scheduler.ts queues it when the
 * in-process attempt does not end soon): retried, on any node, until the deployment is settled.
 */
export const tokenDeployJob: Job<{ tokenId: string }> = {
  name: DEPLOY_JOB,
  // `stately`: one waiting and one running job per token (the scheduler's singleton key).
  options: { policy: 'stately', pollingIntervalSeconds: 1 },
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
