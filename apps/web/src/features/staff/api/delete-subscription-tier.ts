import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidateAfterTierChange } from './get-subscription-tiers.ts';

/**
 * DELETE /management/subscription-tiers/{id}: 204. Only a tier no account, order or invoice names;
 * otherwise 409 TIER_IN_USE (retire it instead).
 */
export async function deleteSubscriptionTier(id: string): Promise<void> {
  await api.accountPlan.delete(`/management/subscription-tiers/${encodeURIComponent(id)}`);
}

export function useDeleteSubscriptionTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscriptionTier,
    onSuccess: () => invalidateAfterTierChange(queryClient),
  });
}
