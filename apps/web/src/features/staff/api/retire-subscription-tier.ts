import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZSubscriptionTier, type TSubscriptionTier } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterTierChange } from './get-subscription-tiers.ts';

/**
 * POST /management/subscription-tiers/{id}/retire: hidden from sale (the plans table, new orders),
 * kept by the accounts on it. Retiring a retired tier changes nothing.
 */
export function retireSubscriptionTier(id: string): Promise<TSubscriptionTier> {
  return api.accountPlan.post(`/management/subscription-tiers/${encodeURIComponent(id)}/retire`, undefined, {
    schema: ZSubscriptionTier,
  });
}

export function useRetireSubscriptionTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retireSubscriptionTier,
    onSuccess: () => invalidateAfterTierChange(queryClient),
  });
}
