import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidateAfterCampaignChange } from './invalidate-rewards.ts';

/** DELETE /api/campaign/management/campaigns/tasks/{taskId} (management-admin): a task of a draft campaign. */
export async function deleteTask(taskId: string): Promise<void> {
  await api.campaign.delete(`/management/campaigns/tasks/${encodeURIComponent(taskId)}`);
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    onSuccess: () => invalidateAfterCampaignChange(queryClient),
  });
}
