import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ZSubscriptionTiersResponse, type TSubscriptionTiersResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { PLAN_QUERY_KEYS } from '../../../lib/plans/api.ts';
import { auditLogKey } from './get-audit-log.ts';

/**
 * GET /api/account-plan/management/subscription-tiers (management-admin): every tier, retired
 * ones included, in the catalogue's order, with their bundles and usage (issue 33 §3).
 */
export function getSubscriptionTiers(signal?: AbortSignal): Promise<TSubscriptionTiersResponse> {
  return api.accountPlan.get('/management/subscription-tiers', {
    schema: ZSubscriptionTiersResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getSubscriptionTiersQueryOptions = () =>
  queryOptions({
    queryKey: ['account-plan', 'management', 'subscription-tiers'],
    queryFn: ({ signal }) => getSubscriptionTiers(signal),
  });

export function useSubscriptionTiers() {
  return useQuery(getSubscriptionTiersQueryOptions());
}

/**
 * After any change of a tier: the tiers (their key is under the account-plan service's, so the
 * customers' plans table and plans cached on this page follow) and the audit log that recorded it.
 */
export function invalidateAfterTierChange(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: getSubscriptionTiersQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: PLAN_QUERY_KEYS[0] }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}
