import type { QueryClient } from '@tanstack/react-query';
import { auditLogKey } from './get-audit-log.ts';
import { managementCampaignsKey } from './get-management-campaigns.ts';
import { managementClaimsKey } from './get-management-claims.ts';
import { getRewardTreasuryQueryOptions } from './get-reward-treasury.ts';

/**
 * After any change to a campaign or one of its tasks: every campaign list and detail (a task's
 * value moves its campaign's QNT value and task count), the treasury (a publication promises a
 * budget, going back to draft releases it) and the audit log that recorded it.
 */
export function invalidateAfterCampaignChange(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managementCampaignsKey }),
    queryClient.invalidateQueries({ queryKey: getRewardTreasuryQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}

/** After a claim is paid or rejected: the claims, the treasury it is paid from, and the audit log. */
export function invalidateAfterClaimAction(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: managementClaimsKey }),
    queryClient.invalidateQueries({ queryKey: getRewardTreasuryQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}
