import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

/** DELETE /api/campaign/management/campaigns/{id} (management-admin): a draft and its tasks; 409 CAMPAIGN_NOT_DRAFT otherwise. */
export async function deleteCampaign(campaignId: string): Promise<void> {
  await api.campaign.delete(`/management/campaigns/${encodeURIComponent(campaignId)}`);
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCampaign,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
