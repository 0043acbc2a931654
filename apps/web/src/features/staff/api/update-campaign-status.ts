import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCampaignStatus } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

export type UpdateCampaignStatus = { campaignId: string; status: TCampaignStatus };

/**
 * PUT /api/campaign/management/campaigns/{id}/update-status (management-admin): one of
 * CAMPAIGN_STAFF_TRANSITIONS. The server refuses with the reason as a problem: no published task
 * (CAMPAIGN_NO_TASKS), the treasury short of the budget (TREASURY_SHORT), customers already in
 * (CAMPAIGN_HAS_PARTICIPANTS), a move it does not allow (CAMPAIGN_TRANSITION_REFUSED).
 */
export async function updateCampaignStatus({ campaignId, status }: UpdateCampaignStatus): Promise<void> {
  await api.campaign.put(`/management/campaigns/${encodeURIComponent(campaignId)}/update-status`, { status });
}

export function useUpdateCampaignStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCampaignStatus,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
