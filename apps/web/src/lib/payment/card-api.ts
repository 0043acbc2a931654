import { queryOptions } from '@tanstack/react-query';
import {
  ZCardConfirmation,
  ZCardIntent,
  ZCardStatus,
  type TCardConfirmRequest,
  type TCardConfirmation,
  type TCardIntent,
  type TCardOrderRequest,
  type TCardStatus,
} from '@connect/shared';
import { api } from '../api.ts';

/*
 * The payment service's card calls (packages/shared/src/cards.ts). In lib/ because the upgrade
 * journey and My account (its payment card, buying credits) both pay by card.
 */

/** GET /card/status: whether cards are taken here, the saved card and a failed monthly charge. */
export const cardStatusQuery = () =>
  queryOptions({
    queryKey: ['payment', 'card', 'status'],
    queryFn: ({ signal }): Promise<TCardStatus> => api.payment.get('/card/status', { schema: ZCardStatus, signal }),
  });

/**
 * POST /card/order as a query: the intent that pays an order by card, asked for once while the
 * card form is on screen. A query rather than a mutation so a re-render, or React's development
 * double effects, never ask for a second intent; `gcTime: 0` asks again when the form is opened again.
 */
export const orderCardIntentQuery = (request: TCardOrderRequest) =>
  queryOptions({
    queryKey: ['payment', 'card', 'order', request.orderId, request.saveCard ?? null],
    queryFn: (): Promise<TCardIntent> => api.payment.post('/card/order', request, { schema: ZCardIntent }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

/** POST /card/setup as a query (see orderCardIntentQuery): the SetupIntent that saves or replaces the card. */
export const setupCardIntentQuery = () =>
  queryOptions({
    queryKey: ['payment', 'card', 'setup'],
    queryFn: (): Promise<TCardIntent> => api.payment.post('/card/setup', {}, { schema: ZCardIntent }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

/** POST /card/confirm: back from the card form (or the provider's redirect); the server reads the intent from the provider. */
export function confirmCardIntent(request: TCardConfirmRequest, signal?: AbortSignal): Promise<TCardConfirmation> {
  return api.payment.post('/card/confirm', request, { schema: ZCardConfirmation, ...(signal ? { signal } : {}) });
}

/** POST /initiate/{orderId}: charges the saved card now for an open order (a failed monthly charge's "Pay now"). */
export function chargeSavedCard(orderId: string): Promise<TCardConfirmation> {
  return api.payment.post(`/initiate/${encodeURIComponent(orderId)}`, {}, { schema: ZCardConfirmation });
}
