import { createHash, randomInt } from 'node:crypto';
import type { CardBehaviour, CheckedCard } from './test-cards.ts';

/*
 * The objects the sandbox holds, shaped as Stripe's API answers them (the fields the platform and
 * the stripe SDK read, plus the usual companions so a reader of the JSON recognises Stripe's).
 */

export type StripeIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export type Metadata = Record<string, string>;

/** Which payment methods an intent takes: those listed, and/or the Dashboard's (`allow_redirects` as asked). */
export type PaymentMethods = {
  allowed: string[] | null;
  automatic: { enabled: true; allow_redirects: 'always' | 'never' } | null;
};

export type NextAction = { type: 'redirect_to_url'; redirect_to_url: { url: string; return_url: string | null } };

/** `last_payment_error` / `last_setup_error`, and the body of a card error. */
export type LastError = {
  type: string;
  code: string;
  decline_code?: string;
  message: string;
  param?: string;
  doc_url?: string;
  payment_method?: PaymentMethodJson;
};

type Base = { id: string; created: number; livemode: false };

export type CustomerJson = Base & {
  object: 'customer';
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Metadata;
  invoice_settings: { default_payment_method: null };
};

export type PaymentIntentJson = Base & {
  object: 'payment_intent';
  amount: number;
  amount_capturable: 0;
  amount_received: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Metadata;
  status: StripeIntentStatus;
  client_secret: string;
  payment_method: string | null;
  allowed_payment_method_types: string[] | null;
  payment_method_types: string[];
  automatic_payment_methods: PaymentMethods['automatic'];
  setup_future_usage: 'off_session' | 'on_session' | null;
  capture_method: 'automatic';
  confirmation_method: 'automatic';
  last_payment_error: LastError | null;
  next_action: NextAction | null;
  latest_charge: string | null;
  canceled_at: null;
  cancellation_reason: null;
};

export type SetupIntentJson = Base & {
  object: 'setup_intent';
  customer: string | null;
  description: string | null;
  metadata: Metadata;
  status: StripeIntentStatus;
  client_secret: string;
  payment_method: string | null;
  allowed_payment_method_types: string[] | null;
  payment_method_types: string[];
  automatic_payment_methods: PaymentMethods['automatic'];
  usage: 'off_session' | 'on_session';
  last_setup_error: LastError | null;
  next_action: NextAction | null;
  cancellation_reason: null;
};

export type PaymentMethodJson = Base & {
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  metadata: Metadata;
  billing_details: { address: null; email: null; name: null; phone: null };
  card: {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    funding: 'credit';
    country: 'US';
    fingerprint: string;
    checks: { cvc_check: 'pass' | null; address_line1_check: null; address_postal_code_check: null };
  };
};

/**
 * What Stripe knows of a card beyond what it shows (there, the number): how the test card
 * behaves, and whether it was set up for off-session charges. Never sent (see publicJson).
 */
export type PaymentMethodRecord = PaymentMethodJson & { sandbox: { behaviour: CardBehaviour; setUp: boolean } };

export type ChargeJson = Base & {
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Metadata;
  payment_intent: string;
  payment_method: string;
  paid: true;
  captured: true;
  refunded: boolean;
  status: 'succeeded';
};

export type RefundJson = Base & {
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  metadata: Metadata;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer' | null;
  status: 'succeeded';
};

export type IntentJson = PaymentIntentJson | SetupIntentJson;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const random = (length: number) => Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
let sequence = 0;

/**
 * A Stripe-like id whose leading part grows with time (milliseconds, then a counter within the
 * millisecond), so ids made in one transaction still sort in the order they were made: the
 * webhook loop delivers events in that order.
 */
export function newId(prefix: string): string {
  sequence = (sequence + 1) % 36 ** 3;
  return `${prefix}_${Date.now().toString(36).padStart(9, '0')}${sequence.toString(36).padStart(3, '0')}${random(12)}`;
}

export const newClientSecret = (id: string) => `${id}_secret_${random(25)}`;

export const unixSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

export function paymentMethodFrom(card: CheckedCard, now: Date, hasCvc: boolean): PaymentMethodRecord {
  const id = newId('pm');
  return {
    id,
    object: 'payment_method',
    type: 'card',
    created: unixSeconds(now),
    livemode: false,
    customer: null,
    metadata: {},
    billing_details: { address: null, email: null, name: null, phone: null },
    card: {
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      funding: 'credit',
      country: 'US',
      // Stripe's fingerprint tells the same card apart without its number; here the number's stand-ins.
      fingerprint: createHash('sha256')
        .update(`${card.brand}:${card.last4}:${card.behaviour}`)
        .digest('base64url')
        .slice(0, 16),
      checks: { cvc_check: hasCvc ? 'pass' : null, address_line1_check: null, address_postal_code_check: null },
    },
    sandbox: { behaviour: card.behaviour, setUp: false },
  };
}

/** The object as the API answers it: without what the sandbox keeps to itself. */
export function publicJson<T extends object>(record: T): Omit<T, 'sandbox'> {
  if (!('sandbox' in record)) return record;
  const { sandbox: _private, ...rest } = record as T & { sandbox: unknown };
  return rest;
}
