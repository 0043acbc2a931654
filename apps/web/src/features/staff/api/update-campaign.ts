import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCampaignRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

export type UpdateCampaign = { campaignId: string; campaign: TCampaignRequest };

/**
 * PUT /api/campaign/management/campaigns/{id} (management-admin): a draft's name, visible name,
 * dates and places; 409 CAMPAIGN_NOT_DRAFT once published. The lists are read again afterwards,
 * so the answer's body is not needed here.
 */
export async function updateCampaign({ campaignId, campaign }: UpdateCampaign): Promise<void> {
  await api.campaign.put(`/management/campaigns/${encodeURIComponent(campaignId)}`, campaign);
}

export function useUpdateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCampaign,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
