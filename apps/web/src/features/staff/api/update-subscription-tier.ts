import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZSubscriptionTier, type TSubscriptionTier, type TSubscriptionTierInput } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterTierChange } from './get-subscription-tiers.ts';

export type UpdateSubscriptionTier = { id: string; input: TSubscriptionTierInput };

/**
 * PUT /management/subscription-tiers/{id}: orders placed from now on take the new prices. A tier in
 * use keeps its type and tier (409 TIER_TYPE_FIXED) and its ordered bundles (409 CREDIT_BUNDLE_IN_USE).
 */
export function updateSubscriptionTier({ id, input }: UpdateSubscriptionTier): Promise<TSubscriptionTier> {
  return api.accountPlan.put(`/management/subscription-tiers/${encodeURIComponent(id)}`, input, {
    schema: ZSubscriptionTier,
  });
}

export function useUpdateSubscriptionTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSubscriptionTier,
    onSuccess: () => invalidateAfterTierChange(queryClient),
  });
}
