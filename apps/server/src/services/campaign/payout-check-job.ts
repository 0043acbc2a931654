import type { Job } from '../../jobs/job.ts';

/** The queue of the reward payouts' in-flight check (a pg-boss schedule queues it). */
export const PAYOUT_CHECK_JOB = 'reward-payout-check';

/**
 * Every five minutes, the reward payouts in flight that the follower has not seen mined are
 * checked (payouts.ts `checkInFlight`): one that reverted puts its claim back to PENDING. Only
 * where claims are paid; each change is conditional, so two nodes running it change a claim once.
 */
export const payoutCheckJob: Job<object> = {
  name: PAYOUT_CHECK_JOB,
  options: { policy: 'stately', schedule: '*/5 * * * *', pollingIntervalSeconds: 30 },
  worker: ({ runtime: { rewards } }) =>
    rewards?.payouts.isAvailable
      ? async () => {
          await rewards.payouts.checkInFlight();
        }
      : undefined,
};
