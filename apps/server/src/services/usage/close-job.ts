import type { Job } from '../../jobs/job.ts';

/** The queue of the usage close (a pg-boss schedule queues it). */
export const USAGE_CLOSE_JOB = 'usage-close';

/**
 * Every five minutes: the gateway's hours that ended (with USAGE_CLOSE_GRACE_MINUTES for every
 * node's last flush) become usage records and ledger consumption (services/usage/close.ts). A
 * close holds one platform-wide lock and keys everything it writes, so a repeated or concurrent
 * run (another node, the development clock) changes nothing. Five minutes: an hour is charged
 * within ten minutes of its end, and the low-balance warnings follow closely.
 */
export const usageCloseJob: Job<object> = {
  name: USAGE_CLOSE_JOB,
  options: { policy: 'stately', schedule: '*/5 * * * *', pollingIntervalSeconds: 30 },
  housekeeping: true,
  worker: ({ runtime: { usage } }) =>
    usage
      ? async () => {
          await usage.closeHours(new Date());
        }
      : undefined,
};
