import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cardStatusQuery, chargeSavedCard } from '../../../lib/payment/card-api.ts';
import { PLAN_QUERY_KEYS } from '../../../lib/plans/api.ts';

/*
 * My account's payment card (lib/payment/card-api.ts has the requests). A payment or a saved card
 * makes the card status and the plan info stale (the order paid, the plan, credits).
 */

export function useCardStatus() {
  return useQuery(cardStatusQuery());
}

/** Makes what a card payment changes stale: the card status, the plan and its orders everywhere. */
export function useRefreshAfterCard() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [cardStatusQuery().queryKey, ...PLAN_QUERY_KEYS].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey: [...queryKey] }),
      ),
    );
}

/** POST /initiate/{orderId}: "Pay now" for a failed monthly charge, with the saved card. */
export function useChargeSavedCard() {
  const refresh = useRefreshAfterCard();
  return useMutation({ mutationFn: (orderId: string) => chargeSavedCard(orderId), onSuccess: refresh });
}
