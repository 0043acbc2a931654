import type { Job } from './job.ts';

/** The queue of the fee bump (a pg-boss schedule queues it). */
export const FEE_BUMP_JOB = 'fee-bump';

/**
 * Every minute, the platform's transactions stuck in a chain's pool are signed again with higher
 * fees (adapters/chains/sender: bumpStuck). pg-boss's cron clock is shared by the nodes (one
 * queues each minute's job), and `stately` lets one run at a time, with at most one waiting: two
 * nodes never bump the same transaction at once, and a slow round never piles up.
 */
export const feeBumpJob: Job<object> = {
  name: FEE_BUMP_JOB,
  options: { policy: 'stately', schedule: '* * * * *', pollingIntervalSeconds: 5 },
  // Only a node that reaches a chain has transactions to bump.
  worker: ({ config, sender }) =>
    config.chains.networks.some((network) => network.rpcUrl)
      ? async () => {
          await sender.bumpStuck();
        }
      : undefined,
};
