import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZClaimHistoryResponse, type TClaimHistoryResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import type { RewardPageQuery } from './get-campaign-history.ts';
import { rewardsKey } from './keys.ts';

/** Every claim-history page starts with this key: a new claim refreshes them. */
export const claimHistoryKey = [...rewardsKey, 'claim-history'] as const;

/** GET /reward/transactions?page&size: the account's claims, newest first. */
export function getClaimHistory(query: RewardPageQuery, signal?: AbortSignal): Promise<TClaimHistoryResponse> {
  return api.campaign.get('/reward/transactions', {
    query,
    schema: ZClaimHistoryResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getClaimHistoryQueryOptions = (query: RewardPageQuery) =>
  queryOptions({
    queryKey: [...claimHistoryKey, query],
    queryFn: ({ signal }) => getClaimHistory(query, signal),
    placeholderData: keepPreviousData,
  });

export function useClaimHistory(query: RewardPageQuery) {
  return useQuery(getClaimHistoryQueryOptions(query));
}
