import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZSubscriptionTiersResponse, type TSubscriptionTiersResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { getSubscriptionTiersQueryOptions, invalidateAfterTierChange } from './get-subscription-tiers.ts';

/**
 * PUT /management/subscription-tiers/order: every tier once, first to last. A list that misses a
 * tier added or deleted since the page loaded answers 409 TIER_ORDER_STALE.
 */
export function reorderSubscriptionTiers(tierIds: string[]): Promise<TSubscriptionTiersResponse> {
  return api.accountPlan.put(
    '/management/subscription-tiers/order',
    { tierIds },
    { schema: ZSubscriptionTiersResponse },
  );
}

export function useReorderSubscriptionTiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderSubscriptionTiers,
    onSuccess: (tiers) => {
      // The answer is the new order: shown at once, then everything that reads the plans refreshed.
      queryClient.setQueryData(getSubscriptionTiersQueryOptions().queryKey, tiers);
      return invalidateAfterTierChange(queryClient);
    },
    // A stale list: the page shows the tiers as they are now.
    onError: () => invalidateAfterTierChange(queryClient),
  });
}
