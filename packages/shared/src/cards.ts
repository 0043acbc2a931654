import { z } from 'zod';
import { MAX_INT32 } from './numbers.ts';

/*
 * Card payments (issue 16; spec §2 the upgrade guard's setup_intent / payment_intent and the fiat
 * success screen, §7 POST /card/order, POST /card/confirm, POST /initiate/{id}, GET /card/status,
 * §8 'Payment has failed'). The card provider is Stripe, or the embedded sandbox that speaks
 * Stripe's API (`mode: 'sandbox'`, shown with a Sandbox chip). Amounts in pence.
 */

/** spec §8, with the advice to check the details. */
export const CARD_MESSAGES = {
  failed: 'Payment has failed',
  checkDetails: 'Please check your card details and try again, or use another card.',
} as const;

/** Stripe's intent statuses (PaymentIntent and SetupIntent). */
export const CARD_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
] as const;
export type TCardIntentStatus = (typeof CARD_INTENT_STATUSES)[number];

/** A card as the platform may show it: never its number. */
export const ZSavedCard = z
  .object({
    brand: z.string(),
    last4: z.string().regex(/^\d{4}$/),
    expMonth: z.number().int().min(1).max(12),
    expYear: z.number().int(),
  })
  .meta({ id: 'SavedCard' });
export type TSavedCard = z.infer<typeof ZSavedCard>;

/** How the SPA reaches the card provider: Stripe.js with the publishable key, or the sandbox's own form. */
export const ZCardProvider = z
  .object({
    mode: z.enum(['stripe', 'sandbox']),
    publishableKey: z.string(),
  })
  .meta({ id: 'CardProvider' });
export type TCardProvider = z.infer<typeof ZCardProvider>;

/**
 * POST /card/order: the intent that pays the caller's order by card — a PaymentIntent for what is
 * to pay now, or a SetupIntent when nothing is (pay as you go: the card kept for the month-end
 * bills). `saveCard` keeps the card for monthly charges (always for pay as you go).
 */
export const ZCardOrderRequest = z
  .object({ orderId: z.uuid(), saveCard: z.boolean().optional() })
  .meta({ id: 'CardOrderRequest' });
export type TCardOrderRequest = z.infer<typeof ZCardOrderRequest>;

export const ZCardIntent = z
  .object({
    kind: z.enum(['PAYMENT', 'SETUP']),
    /** pi_… or seti_… */
    intentId: z.string(),
    clientSecret: z.string(),
    status: z.enum(CARD_INTENT_STATUSES),
    amountGbpMinor: z.number().int(),
    orderId: z.uuid().nullable(),
    provider: ZCardProvider,
  })
  .meta({ id: 'CardIntent' });
export type TCardIntent = z.infer<typeof ZCardIntent>;

/** POST /card/confirm: back from the card form (or Stripe's redirect) with the intent's id. */
export const ZCardConfirmRequest = z
  .object({
    paymentIntent: z
      .string()
      .regex(/^pi_[A-Za-z0-9]+$/)
      .optional(),
    setupIntent: z
      .string()
      .regex(/^seti_[A-Za-z0-9]+$/)
      .optional(),
  })
  .refine((body) => Boolean(body.paymentIntent) !== Boolean(body.setupIntent), {
    message: 'Give either paymentIntent or setupIntent.',
    path: ['paymentIntent'],
  })
  .meta({ id: 'CardConfirmRequest' });
export type TCardConfirmRequest = z.infer<typeof ZCardConfirmRequest>;

/** The outcome of a card intent as the provider reports it, with the order it pays. */
export const ZCardConfirmation = z
  .object({
    kind: z.enum(['PAYMENT', 'SETUP']),
    intentId: z.string(),
    status: z.enum(CARD_INTENT_STATUSES),
    /** The order paid (or waiting); null for a card saved outside an order. */
    orderId: z.uuid().nullable(),
    orderStatus: z.enum(['AWAITING_PAYMENT', 'PAID', 'CANCELLED']).nullable(),
    /** The provider's reason when it failed (e.g. 'Your card was declined.'). */
    failure: z.object({ code: z.string(), message: z.string() }).nullable(),
    card: ZSavedCard.nullable(),
  })
  .meta({ id: 'CardConfirmation' });
export type TCardConfirmation = z.infer<typeof ZCardConfirmation>;

/** GET /card/status: whether cards are taken here, the saved card and the last monthly charge. */
export const ZCardStatus = z
  .object({
    available: z.boolean(),
    provider: ZCardProvider.nullable(),
    card: ZSavedCard.nullable(),
    /** The latest monthly charge of the saved card that failed and will be tried again, if any. */
    failedCharge: z
      .object({
        orderId: z.uuid(),
        reference: z.string(),
        amountGbpMinor: z.number().int(),
        attempts: z.number().int(),
        nextAttemptAt: z.string().nullable(),
        message: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'CardStatus' });
export type TCardStatus = z.infer<typeof ZCardStatus>;

/** Staff refund (part of) an order paid by card; a credit note is issued against its invoice. */
export const ZCardRefundRequest = z
  .object({
    idempotencyKey: z.string().trim().min(8).max(100),
    /** Stored in an `integer` column; at most what is left to refund (REFUND_TOO_LARGE). */
    amountGbpMinor: z.number().int().min(1).max(MAX_INT32),
    reason: z.string().trim().min(1).max(500),
    /**
     * An order paid by bank transfer is paid back by a transfer staff make: its reference (required
     * then, ignored for a card payment, which the card provider refunds).
     */
    bankReference: z.string().trim().min(1).max(100).optional(),
  })
  .meta({ id: 'CardRefundRequest' });
export type TCardRefundRequest = z.infer<typeof ZCardRefundRequest>;

export const ZCreditNote = z
  .object({
    id: z.uuid(),
    invoiceId: z.uuid(),
    orderId: z.uuid(),
    refundId: z.uuid(),
    amountGbpMinor: z.number().int(),
    reason: z.string(),
    status: z.string(),
    issuedAt: z.string(),
  })
  .meta({ id: 'CreditNote' });
export type TCreditNote = z.infer<typeof ZCreditNote>;

/** Stripe's documented test cards and their outcomes; the sandbox answers them as Stripe's test mode does. */
export const SANDBOX_TEST_CARDS = [
  { number: '4242424242424242', outcome: 'Succeeds' },
  { number: '4000002500003155', outcome: 'Asks for authentication, then succeeds (kept for later charges)' },
  { number: '4000000000000002', outcome: 'Declined (generic_decline)' },
  { number: '4000000000009995', outcome: 'Declined (insufficient_funds)' },
  { number: '4000000000000341', outcome: 'Saved, but later charges are declined' },
] as const;
