import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZActiveCampaignsResponse, type TActiveCampaignsResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { rewardsKey } from './keys.ts';

export type TActiveCampaign = TActiveCampaignsResponse['campaigns'][number];

/**
 * GET /campaigns/active: the campaigns open to opt in (PUBLISHED) or running (ACTIVE), each with
 * its published tasks, how many have opted in and whether it is full.
 */
export async function getActiveCampaigns(signal?: AbortSignal): Promise<TActiveCampaign[]> {
  const answer = await api.campaign.get('/campaigns/active', {
    schema: ZActiveCampaignsResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.campaigns;
}

export const getActiveCampaignsQueryOptions = () =>
  queryOptions({ queryKey: [...rewardsKey, 'active'], queryFn: ({ signal }) => getActiveCampaigns(signal) });

/** `isEnabled`: false while the page does not know yet whether the account may use rewards. */
export function useActiveCampaigns(isEnabled = true) {
  return useQuery({ ...getActiveCampaignsQueryOptions(), enabled: isEnabled });
}
