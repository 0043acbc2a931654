import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZClaimDetail, type TClaimDetail } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementClaimsKey, PAYING_POLL_MS } from './get-management-claims.ts';

/**
 * GET /api/campaign/management/reward/claims/{id} (management-admin): the claim with its wallet
 * address, its payout's transaction and its history (made, sent, resent, confirmed, rejected).
 */
export function getManagementClaim(claimId: string, signal?: AbortSignal): Promise<TClaimDetail> {
  return api.campaign.get(`/management/reward/claims/${encodeURIComponent(claimId)}`, {
    schema: ZClaimDetail,
    ...(signal ? { signal } : {}),
  });
}

export const getManagementClaimQueryOptions = (claimId: string) =>
  queryOptions({
    queryKey: [...managementClaimsKey, 'detail', claimId],
    queryFn: ({ signal }) => getManagementClaim(claimId, signal),
    // While the payout is under way the dialog follows it to its confirmation.
    refetchInterval: (q) => (q.state.data?.status === 'PAYING' ? PAYING_POLL_MS : false),
  });

export function useManagementClaim(claimId: string) {
  return useQuery(getManagementClaimQueryOptions(claimId));
}
