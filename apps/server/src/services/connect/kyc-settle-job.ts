import type { Job } from '../../jobs/job.ts';
import { KYC_SETTLE_JOB } from './kyc-service.ts';

/**
 * A sandbox identity check settles at a known time (KYC_SANDBOX_DELAY_MS after it started):
 * kyc-service.ts sends this job to start then, keyed by the check, and it
 * settles the check on whichever node takes it — after a restart too, unlike a timer. A check
 * not yet due makes the job throw (pg-boss tries again); one already settled is done.
 * On demand: a node with no other job starts the queue only once a check is sent here.
 */
export const kycSettleJob: Job<{ checkId: string }> = {
  name: KYC_SETTLE_JOB,
  // `short`: one waiting job per check (its singleton key), so the start-up's resume sends no twin.
  // A settling is one read of the check and one write: a job active for 30 s ran on a node that
  // died, and is retried on a live one within a minute (issue 31).
  options: { policy: 'short', pollingIntervalSeconds: 1, onDemand: true, expireInSeconds: 30 },
  worker: ({ runtime: { kyc } }) => (kyc ? async ({ checkId }) => kyc.settleDue(checkId) : undefined),
};
