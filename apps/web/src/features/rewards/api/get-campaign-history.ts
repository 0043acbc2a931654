import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaignHistoryResponse, type TCampaignHistoryResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { rewardsKey } from './keys.ts';

/** Zero-based page (spec §4: the server counts from 0) and a size of spec §9's. */
export type RewardPageQuery = { page: number; size: number };

/** GET /campaigns/completed?page&size: the ended campaigns the account took part in, what each earned. */
export function getCampaignHistory(query: RewardPageQuery, signal?: AbortSignal): Promise<TCampaignHistoryResponse> {
  return api.campaign.get('/campaigns/completed', {
    query,
    schema: ZCampaignHistoryResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getCampaignHistoryQueryOptions = (query: RewardPageQuery) =>
  queryOptions({
    queryKey: [...rewardsKey, 'campaign-history', query],
    queryFn: ({ signal }) => getCampaignHistory(query, signal),
    // Another page keeps the rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });

export function useCampaignHistory(query: RewardPageQuery) {
  return useQuery(getCampaignHistoryQueryOptions(query));
}
