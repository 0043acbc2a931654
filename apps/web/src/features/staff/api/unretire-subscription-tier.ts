import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZSubscriptionTier, type TSubscriptionTier } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterTierChange } from './get-subscription-tiers.ts';

/** POST /management/subscription-tiers/{id}/unretire: on sale again, in its place in the order. */
export function unretireSubscriptionTier(id: string): Promise<TSubscriptionTier> {
  return api.accountPlan.post(`/management/subscription-tiers/${encodeURIComponent(id)}/unretire`, undefined, {
    schema: ZSubscriptionTier,
  });
}

export function useUnretireSubscriptionTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unretireSubscriptionTier,
    onSuccess: () => invalidateAfterTierChange(queryClient),
  });
}
