import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TTaskRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

export type UpdateTask = { campaignId: string; externalId: string; task: TTaskRequest };

/**
 * PUT /api/campaign/management/campaigns/{campaignId}/tasks/{externalId} (management-admin): the
 * whole task, its status included — publishing a task or converting it to a draft is this call
 * with the other status.
 */
export async function updateTask({ campaignId, externalId, task }: UpdateTask): Promise<void> {
  await api.campaign.put(
    `/management/campaigns/${encodeURIComponent(campaignId)}/tasks/${encodeURIComponent(externalId)}`,
    task,
  );
}

export function useUpdateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTask,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
