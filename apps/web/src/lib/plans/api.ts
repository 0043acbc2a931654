import { queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  LIMITS,
  ZCreditBundlesResponse,
  ZFetchPlansResponse,
  ZOrder,
  ZSubscription,
  type TCreditBundlesResponse,
  type TCreditsOrderRequest,
  type TFetchPlansResponse,
  type TOrder,
  type TPlanOrderRequest,
  type TSubscription,
} from '@connect/shared';
import { api } from '../api.ts';

/*
 * The account-plan service's plan and order requests (packages/shared/src/plans.ts and
 * subscriptions.ts). They live in lib/ because the upgrade journey, My account's plan page, the
 * dashboard and the top bar all use them.
 */

/** GET /v2/fetch-plans: the plans table (pay as you go against the annual subscription). */
export const fetchPlansQuery = () =>
  queryOptions({
    queryKey: ['account-plan', 'fetch-plans'],
    queryFn: ({ signal }): Promise<TFetchPlansResponse> =>
      api.accountPlan.get('/v2/fetch-plans', { schema: ZFetchPlansResponse, signal }),
  });

/** GET /rate-plan/{id}/credit-bundles. */
export const creditBundlesQuery = (ratePlanId: string) =>
  queryOptions({
    queryKey: ['account-plan', 'credit-bundles', ratePlanId],
    queryFn: ({ signal }): Promise<TCreditBundlesResponse> =>
      api.accountPlan.get(`/rate-plan/${encodeURIComponent(ratePlanId)}/credit-bundles`, {
        schema: ZCreditBundlesResponse,
        signal,
      }),
  });

/** GET /subscription: the account's plan, allowances, usage, credits and open order; refreshed with the plan info. */
export const subscriptionQuery = () =>
  queryOptions({
    queryKey: ['account-plan', 'subscription'],
    queryFn: ({ signal }): Promise<TSubscription> =>
      api.accountPlan.get('/subscription', { schema: ZSubscription, signal }),
    staleTime: LIMITS.planRefreshMs,
    refetchInterval: LIMITS.planRefreshMs,
  });

/** POST /order/plan. */
export function orderPlan(order: TPlanOrderRequest): Promise<TOrder> {
  return api.accountPlan.post('/order/plan', order, { schema: ZOrder });
}

/** POST /order/credits: a credit bundle outside the upgrade journey. */
export function orderCredits(order: TCreditsOrderRequest): Promise<TOrder> {
  return api.accountPlan.post('/order/credits', order, { schema: ZOrder });
}

/** POST /order/track: the caller's order now. */
export function trackOrder(orderId: string): Promise<TOrder> {
  return api.accountPlan.post('/order/track', { orderId }, { schema: ZOrder });
}

/** POST /order/{id}/cancel: withdraws an order that waits for its payment. */
export function cancelOrder(orderId: string): Promise<TOrder> {
  return api.accountPlan.post(`/order/${encodeURIComponent(orderId)}/cancel`, {}, { schema: ZOrder });
}

/** POST /subscription/cancel: the plan ends at the end of its period. */
export function cancelSubscription(): Promise<TSubscription> {
  return api.accountPlan.post('/subscription/cancel', {}, { schema: ZSubscription });
}

/** POST /subscription/resume: withdraws the cancellation. */
export function resumeSubscription(): Promise<TSubscription> {
  return api.accountPlan.post('/subscription/resume', {}, { schema: ZSubscription });
}

/** POST /subscription/downgrade: the lower plan for the next period (null: keep the current one). */
export function downgradeSubscription(ratePlanId: string | null): Promise<TSubscription> {
  return api.accountPlan.post('/subscription/downgrade', { ratePlanId }, { schema: ZSubscription });
}

/** How often an order waiting for a bank transfer is tracked (POST /order/track). */
export const TRACK_INTERVAL_MS = 30_000;
/** How often a QNT payment under way is tracked: its confirmations are shown live. */
export const QNT_TRACK_INTERVAL_MS = 2_500;

/**
 * When to track an order again: never once it is paid or cancelled; a QNT payment every 2.5 s
 * while it is new or processing, not at all once settled or invalid, and at the slow pace once its
 * quote has expired (a late transfer may still arrive); any other order every `intervalMs`.
 */
export function trackIntervalOf(order: TOrder | undefined, intervalMs: number): number | false {
  if (order?.status !== 'AWAITING_PAYMENT') return false;
  const status = order.qnt?.status;
  if (status === 'SETTLED' || status === 'INVALID') return false;
  if (status === 'NEW' || status === 'PROCESSING') return Math.min(intervalMs, QNT_TRACK_INTERVAL_MS);
  return intervalMs;
}

/**
 * POST /order/track as a query: the order now, asked again (trackIntervalOf) while it waits for its
 * payment. Every screen showing the order shares it; it stops when none is left on the page.
 */
export const trackOrderQuery = (order: TOrder, intervalMs: number = TRACK_INTERVAL_MS) =>
  queryOptions({
    queryKey: ['account-plan', 'order', order.id],
    queryFn: (): Promise<TOrder> => trackOrder(order.id),
    initialData: order,
    // The order placed (or cancelled) a moment ago is the latest; the first track waits one interval.
    initialDataUpdatedAt: () => Date.now(),
    staleTime: (query) => trackIntervalOf(query.state.data, intervalMs) || intervalMs,
    refetchInterval: (query) => trackIntervalOf(query.state.data, intervalMs),
  });

/**
 * The queries a payment or plan change makes stale: everything of the account-plan service (the top
 * bar's plan, the subscription, the dashboard's plan) and the features, whose allowances follow the
 * plan (lib/current-user.ts availableFeaturesQuery).
 */
export const PLAN_QUERY_KEYS = [['account-plan'], ['connect', 'available']] as const;

/** Refreshes what shows the plan now, right after an order is placed, paid or cancelled. */
export function refreshPlanQueries(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(PLAN_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * Refreshes what shows the plan once an order shown on the page turns paid (or its QNT settles)
 * while the page is open: the top bar, the dashboard and the features follow at once. An order
 * already paid when the page opened refreshes nothing.
 */
export function useRefreshPlanWhenPaid(isPaid: boolean): void {
  const queryClient = useQueryClient();
  const wasPaid = useRef(isPaid);
  useEffect(() => {
    if (isPaid && !wasPaid.current) {
      wasPaid.current = true;
      void refreshPlanQueries(queryClient);
    }
  }, [isPaid, queryClient]);
}
