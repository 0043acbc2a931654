import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TTaskRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

export type CreateTask = { campaignId: string; task: TTaskRequest };

/** POST /api/campaign/management/campaigns/{campaignId}/tasks (management-admin): a task of a draft campaign. */
export async function createTask({ campaignId, task }: CreateTask): Promise<void> {
  await api.campaign.post(`/management/campaigns/${encodeURIComponent(campaignId)}/tasks`, task);
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
