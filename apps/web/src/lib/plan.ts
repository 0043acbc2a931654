import { queryOptions } from '@tanstack/react-query';
import { LIMITS, ZPlanInfo, type TPlanInfo } from '@connect/shared';
import { api } from './api.ts';

/**
 * The caller's plan info (spec §3 Plan info) from `GET /api/account-plan/user-plan`, for the top
 * bar and the dashboard. Refreshed every 10 minutes (spec §4, §9); TanStack Query's
 * `dataUpdatedAt` is the spec's `lastUpdate` stamp. The cache is cleared on sign-out, so the key
 * needs no user id.
 */
export const planInfoQuery = () =>
  queryOptions({
    queryKey: ['account-plan', 'user-plan'],
    queryFn: ({ signal }): Promise<TPlanInfo> => api.accountPlan.get('/user-plan', { schema: ZPlanInfo, signal }),
    staleTime: LIMITS.planRefreshMs,
    refetchInterval: LIMITS.planRefreshMs,
  });
