import type { Job } from '../../jobs/job.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import { UserManagementService } from './user-management-service.ts';

export const PENDING_USERS_PURGE_JOB = 'pending-users-purge';

/**
 * Every night, invited users still pending after 90 days (spec §9, LIMITS.pendingUserRetentionDays)
 * are deleted from the identity pool and marked REMOVED by 'system', each audited as an intent and
 * its outcome (UserManagementService.purgePending). Housekeeping: it rides on a queue that runs.
 */
export const pendingUsersPurgeJob: Job<object> = {
  name: PENDING_USERS_PURGE_JOB,
  options: { policy: 'stately', schedule: '41 3 * * *', pollingIntervalSeconds: 60 },
  housekeeping: true,
  worker: (deps) => async () => {
    await new UserManagementService(deps.db, deps.identityAdmin, deps.events, (accountId) =>
      applicationChanges(deps).accountChanged(accountId),
    ).purgePending();
  },
};
