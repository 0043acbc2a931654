import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZManagementClaimsResponse, type TClaimStatus, type TManagementClaimsResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** Every claim query starts with this key (the list, a claim's detail): paying or rejecting one refreshes them. */
export const managementClaimsKey = ['campaign', 'management', 'claims'] as const;

/**
 * The claim list's request (spec §7): status (repeated), page (zero-based), size, the account id
 * filter, and sort as `field,order` (spec §4; formatClaimSort), '' for none.
 */
export type ManagementClaimsQuery = {
  status: readonly TClaimStatus[];
  page: number;
  size: number;
  sort: string;
  accountId?: string;
};

/** How often a list or a claim with a payout under way asks again, so a PAYING claim turns COMPLETED by itself. */
export const PAYING_POLL_MS = 3_000;

/** GET /api/campaign/management/reward/transactions (management-admin): one page of claims. */
export function getManagementClaims(
  query: ManagementClaimsQuery,
  signal?: AbortSignal,
): Promise<TManagementClaimsResponse> {
  return api.campaign.get('/management/reward/transactions', {
    query: { ...query, status: [...query.status] },
    schema: ZManagementClaimsResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getManagementClaimsQueryOptions = (query: ManagementClaimsQuery) =>
  queryOptions({
    queryKey: [...managementClaimsKey, 'list', query],
    queryFn: ({ signal }) => getManagementClaims(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.content.some((claim) => claim.status === 'PAYING') ? PAYING_POLL_MS : false),
  });

export function useManagementClaims(query: ManagementClaimsQuery) {
  return useQuery(getManagementClaimsQueryOptions(query));
}
