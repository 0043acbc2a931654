import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCampaign, type TCampaign, type TCampaignRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

/** POST /api/campaign/management/campaigns (management-admin): a new campaign, a draft without tasks. */
export function createCampaign(campaign: TCampaignRequest): Promise<TCampaign> {
  return api.campaign.post('/management/campaigns', campaign, { schema: ZCampaign });
}

export function useCreateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCampaign,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
