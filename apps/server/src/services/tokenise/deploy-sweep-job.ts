import type { Job } from '../../jobs/job.ts';

/** The queue of the minute's sweep of deployments (a pg-boss schedule queues it). */
export const DEPLOY_SWEEP_JOB = 'token-deploy-sweep';

/**
 * Every minute, on one node: every deployment still to be followed that was accepted more than a
 * minute ago gets its durable job queued again (DeploymentScheduler.sweep) — the safety net for a
 * job whose send was refused, so no accepted deployment waits for a node's start to be followed.
 */
export const deploySweepJob: Job<object> = {
  name: DEPLOY_SWEEP_JOB,
  options: { policy: 'stately', schedule: '* * * * *', pollingIntervalSeconds: 30 },
  worker: ({ runtime: { tokenise } }) => (tokenise?.deploys ? async () => void (await tokenise.sweep()) : undefined),
};
