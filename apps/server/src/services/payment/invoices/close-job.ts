import { ProblemError } from '../../../lib/errors.ts';
import type { Job } from '../../../jobs/job.ts';

/** The queue of the month's close (a pg-boss schedule queues it). */
export const INVOICE_CLOSE_JOB = 'invoice-close';

/**
 * Every hour: the UTC month that ended last is closed (services/payment/invoices/close.ts) — its
 * drafts made or recomputed as soon as its usage is charged, then numbered once the grace window
 * has passed. The period end is the job's parameter (the start of the current UTC month). Until
 * the usage close has charged the month's last hour the close refuses (PERIOD_NOT_CLOSABLE) and
 * the next run tries again; a finalised month makes nothing, on any node (the close's lock and keys).
 */
export const invoiceCloseJob: Job<object> = {
  name: INVOICE_CLOSE_JOB,
  options: { policy: 'stately', schedule: '17 * * * *', pollingIntervalSeconds: 60 },
  housekeeping: true,
  worker: ({ runtime: { invoices } }) =>
    invoices
      ? async () => {
          const now = new Date();
          try {
            await invoices.closePeriod({
              periodEnd: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
              now,
            });
          } catch (error) {
            // The month's last hours are not charged yet: the next run closes it.
            if (error instanceof ProblemError && error.code === 'PERIOD_NOT_CLOSABLE') return;
            throw error;
          }
        }
      : undefined,
};
