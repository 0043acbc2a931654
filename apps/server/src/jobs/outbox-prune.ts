import type { Job } from './job.ts';

/** The queue of the outbox's housekeeping (a pg-boss schedule queues it). */
export const OUTBOX_PRUNE_JOB = 'outbox-prune';

/** Delivered events are history: kept this long for inspection, then deleted. */
export const DELIVERED_EVENTS_KEPT_DAYS = 7;

/**
 * Every night, the outbox's delivered events older than a week are deleted (one statement;
 * undelivered events are never touched). Each gateway flush adds a row, so the table would
 * otherwise grow without end.
 */
export const outboxPruneJob: Job<object> = {
  name: OUTBOX_PRUNE_JOB,
  options: { policy: 'stately', schedule: '17 3 * * *', pollingIntervalSeconds: 60 },
  housekeeping: true,
  worker:
    ({ events }) =>
    async () => {
      await events.prune(DELIVERED_EVENTS_KEPT_DAYS);
    },
};
