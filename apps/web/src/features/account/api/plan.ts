import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreditsOrderRequest, TRatePlan } from '@connect/shared';
import {
  PLAN_QUERY_KEYS,
  cancelOrder,
  cancelSubscription,
  downgradeSubscription,
  fetchPlansQuery,
  orderCredits,
  resumeSubscription,
} from '../../../lib/plans/api.ts';

/*
 * The plan section's changes (lib/plans/api.ts has the requests). Each one makes the plan info
 * stale everywhere it is shown — the top bar, the dashboard, this page — and the features' totals.
 */

function useInvalidatePlan() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(PLAN_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey: [...queryKey] })));
}

export function useCancelPlan() {
  const invalidate = useInvalidatePlan();
  return useMutation({ mutationFn: cancelSubscription, onSuccess: invalidate });
}

export function useResumePlan() {
  const invalidate = useInvalidatePlan();
  return useMutation({ mutationFn: resumeSubscription, onSuccess: invalidate });
}

export function useDowngradePlan() {
  const invalidate = useInvalidatePlan();
  return useMutation({
    mutationFn: (ratePlanId: string | null) => downgradeSubscription(ratePlanId),
    onSuccess: invalidate,
  });
}

export function useCancelOrder() {
  const invalidate = useInvalidatePlan();
  return useMutation({ mutationFn: (orderId: string) => cancelOrder(orderId), onSuccess: invalidate });
}

export function useOrderCredits() {
  const invalidate = useInvalidatePlan();
  return useMutation({ mutationFn: (order: TCreditsOrderRequest) => orderCredits(order), onSuccess: invalidate });
}

/** Every plan on sale, flat (the plans table's groups and their tiers). */
export function useRatePlans() {
  return useQuery({
    ...fetchPlansQuery(),
    select: (response): TRatePlan[] => response.groups.flatMap((group) => group.tiers),
  });
}
