import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZSubscriptionTier, type TSubscriptionTier, type TSubscriptionTierInput } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterTierChange } from './get-subscription-tiers.ts';

/**
 * POST /management/subscription-tiers: a new tier, on sale and last in the order (201). A name
 * another tier has answers 409 TIER_NAME_EXISTS; a field the rules refuse, 400 with invalidParams.
 */
export function createSubscriptionTier(input: TSubscriptionTierInput): Promise<TSubscriptionTier> {
  return api.accountPlan.post('/management/subscription-tiers', input, { schema: ZSubscriptionTier });
}

export function useCreateSubscriptionTier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubscriptionTier,
    onSuccess: () => invalidateAfterTierChange(queryClient),
  });
}
