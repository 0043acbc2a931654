import { z } from 'zod';
import {
  ZCardConfirmation,
  ZCardConfirmRequest,
  ZCardIntent,
  ZCardOrderRequest,
  ZCardRefundRequest,
  ZCardStatus,
  ZCreditNote,
  ZProblem,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { cardPayments } from './index.ts';
import { callerOf } from '../../lib/caller.ts';

const problems = { '4xx': ZProblem, '5xx': ZProblem };
const docs = { tags: ['payment'], security: [{ bearerAuth: [] }] };

/**
 * Card payments (spec §7: POST /card/order, POST /card/confirm, POST /initiate/{id},
 * GET /card/status), saving a card, the provider's webhook and the staff's refunds. Registered by
 * routes.ts under /api/payment.
 */
export async function cardRoutes(app: App, deps: Deps) {
  const cards = cardPayments(deps, app.log);
  deps.runtime.cards = cards.isAvailable
    ? { chargeDue: (now) => cards.chargeDue(now), reconcile: (now) => cards.reconcile(now) }
    : undefined;

  app.post(
    '/card/order',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The card payment of an order (a PaymentIntent, or a SetupIntent when nothing is due now)',
        description:
          'For the caller’s order to pay by card (paymentMethod FIAT): a PaymentIntent for what it still owes, to confirm in the browser with its client secret (the same open intent again on a repeated call), or — for pay as you go, which has nothing to pay now — a SetupIntent that keeps the card for the month-end bills. 404 ORDER_NOT_FOUND for another account’s order; 409 ORDER_NOT_PAYABLE once paid or withdrawn; 503 CARD_PAYMENTS_UNAVAILABLE where cards are not taken.',
        body: ZCardOrderRequest,
        response: { 200: ZCardIntent, ...problems },
      },
    },
    async (request) => cards.orderIntent(callerOf(request), request.body),
  );

  app.post(
    '/card/setup',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Save or replace the card for monthly charges (a SetupIntent)',
        description: 'Once confirmed (POST /card/confirm with its setupIntent) the card replaces the saved one.',
        response: { 200: ZCardIntent, ...problems },
      },
    },
    async (request) => cards.setupIntent(callerOf(request)),
  );

  app.post(
    '/card/confirm',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The outcome of a card payment, back from the card form',
        description:
          'Reads the intent from the card provider (never from the browser): when it paid an order, the order is settled (once, whether the webhook or this call came first) and the answer waits for it — woken by the order’s settlement, at most 5 s, after which it answers the order’s status as it stands. 404 CARD_INTENT_NOT_FOUND for an intent of another account.',
        body: ZCardConfirmRequest,
        response: { 200: ZCardConfirmation, ...problems },
      },
    },
    async (request) => cards.confirm(callerOf(request), request.body),
  );

  app.post(
    '/initiate/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Charge the saved card now for an order that waits (pay a failed monthly charge)',
        description:
          'A decline is an answer (status requires_payment_method with the provider’s reason), not an error. 409 CARD_NOT_SAVED without a saved card; 409 ORDER_NOT_PAYABLE once the order no longer awaits payment; 404 ORDER_NOT_FOUND for another account’s order.',
        params: z.object({ id: z.uuid() }),
        response: { 200: ZCardConfirmation, ...problems },
      },
    },
    async (request) => cards.initiate(callerOf(request), request.params.id),
  );

  app.get(
    '/card/status',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Whether cards are taken, the saved card and a failed monthly charge',
        response: { 200: ZCardStatus, ...problems },
      },
    },
    async (request) => cards.status(callerOf(request)),
  );

  app.post(
    '/management/orders/:id/refunds',
    {
      config: { access: { groups: ['management-admin' as const] } },
      schema: {
        ...docs,
        summary: 'Refund (part of) a paid order, with a credit note (staff)',
        description:
          'An order paid by card is refunded to the card through the card provider; one paid by bank transfer is paid back by a transfer staff make, recorded here with its `bankReference` (required then). Either way a credit note is issued against the order’s invoice and the customer is emailed; audited (ORDER_REFUNDED). A repeated idempotencyKey answers the first credit note. 422 REFUND_TOO_LARGE beyond what is left to refund; 409 ORDER_HAS_NO_CARD_PAYMENT when neither a card payment nor a bank transfer paid the order (QNT is not refunded here); 409 ORDER_NOT_PAID for a bank-transfer order not paid in full yet.',

        params: z.object({ id: z.uuid() }),
        body: ZCardRefundRequest,
        response: { 200: ZCreditNote, ...problems },
      },
    },
    async (request) => cards.refund({ ...callerOf(request), requestId: request.id }, request.params.id, request.body),
  );

  // The webhook's signature is over the body's bytes, so this scope keeps JSON as a string.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(
      '/card/webhook',
      {
        // Stripe sends bursts from few addresses (the sandbox from the app itself); the signature guards it.
        config: { access: 'public', rateLimit: false },
        schema: {
          tags: ['payment'],
          summary: 'The card provider’s webhook (Stripe’s events, signed)',
          description:
            'Accepted only with a valid `Stripe-Signature` over the raw body (STRIPE_WEBHOOK_SECRET; the sandbox signs the same way); otherwise 400 CARD_WEBHOOK_INVALID. Each event is handled once; the intent’s outcome settles its order.',
          headers: z.object({ 'stripe-signature': z.string().max(1000).optional() }),
          response: { 200: z.object({ received: z.literal(true) }), ...problems },
        },
      },
      async (request) =>
        cards.handleWebhook(
          typeof request.body === 'string' ? request.body : '',
          [request.headers['stripe-signature']].flat()[0],
        ),
    );
  });
}
