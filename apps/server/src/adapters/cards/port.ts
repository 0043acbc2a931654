import type { TCardIntentStatus, TSavedCard } from '@connect/shared';

/*
 * The card port (issue 16; docs/decisions/payments.md "Card payments"). One adapter speaks Stripe's API
 * through the `stripe` SDK (stripe.ts); it talks to Stripe itself when STRIPE_SECRET_KEY is set,
 * and otherwise to the embedded sandbox (sandbox/), which answers the same API on its own port,
 * with Stripe's test cards, and signs its webhooks as Stripe does. So the platform's card code
 * never knows which it talks to, and the adapter's contract tests run against the sandbox.
 *
 * Every call that creates something takes an idempotency key: a retry after a timeout answers
 * the first result instead of charging twice.
 */

export type CardMode = 'stripe' | 'sandbox';

/** The provider's reason an intent failed (Stripe's last_payment_error / last_setup_error). */
export type CardFailure = { code: string; declineCode: string | null; message: string };

export type PaymentIntentView = {
  id: string;
  status: TCardIntentStatus;
  /** In the currency's minor unit (pence). */
  amount: number;
  currency: string;
  clientSecret: string;
  customerId: string | null;
  /** The card it was paid with (or tried), when one is attached. */
  paymentMethodId: string | null;
  lastError: CardFailure | null;
  metadata: Record<string, string>;
  /** Where the customer completes authentication (status requires_action), if anywhere. */
  redirectUrl: string | null;
};

export type SetupIntentView = {
  id: string;
  status: TCardIntentStatus;
  clientSecret: string;
  customerId: string | null;
  paymentMethodId: string | null;
  lastError: CardFailure | null;
  metadata: Record<string, string>;
};

export type CardPaymentMethod = TSavedCard & { id: string };

export type RefundView = { id: string; status: string; amount: number; paymentIntentId: string };

/** A verified webhook event: the object it carries, read into the views above. */
export type CardEvent =
  | { id: string; type: string; object: 'payment_intent'; paymentIntent: PaymentIntentView }
  | { id: string; type: string; object: 'setup_intent'; setupIntent: SetupIntentView }
  | { id: string; type: string; object: 'other' };

/** A webhook whose signature does not verify (answered 400). */
export class CardSignatureError extends Error {}

/**
 * The provider answered a request with a refusal (Stripe's 4xx: invalid request, card error): it
 * did nothing. Any other failure (a timeout, a 5xx) leaves the outcome unknown.
 */
export class CardRefusedError extends Error {
  constructor(
    message: string,
    /** The provider's error code (Stripe's `code`, e.g. amount_too_large), when it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/**
 * The provider is still working on another request with the same idempotency key (Stripe's 409
 * `idempotency_key_in_use`, after the SDK's own retries): this request did nothing, and the same
 * call sent again once the other one is done is answered with its result (issue 27 review).
 */
export class CardKeyInUseError extends Error {
  readonly code = 'idempotency_key_in_use';
}

export interface CardGateway {
  readonly mode: CardMode;
  /** What Stripe.js (or the sandbox's form) is given in the browser. */
  readonly publishableKey: string;

  createCustomer(
    input: { accountId: string; email: string | null; name: string | null },
    idempotencyKey: string,
  ): Promise<{ id: string }>;

  /** A PaymentIntent to confirm in the browser; `saveCard` sets setup_future_usage off_session. */
  createPaymentIntent(
    input: {
      amount: number;
      currency: 'gbp';
      customerId: string;
      description: string;
      metadata: Record<string, string>;
      saveCard: boolean;
    },
    idempotencyKey: string,
  ): Promise<PaymentIntentView>;

  /** A SetupIntent (usage off_session) to save a card in the browser. */
  createSetupIntent(
    input: { customerId: string; metadata: Record<string, string> },
    idempotencyKey: string,
  ): Promise<SetupIntentView>;

  retrievePaymentIntent(id: string): Promise<PaymentIntentView>;
  retrieveSetupIntent(id: string): Promise<SetupIntentView>;
  retrievePaymentMethod(id: string): Promise<CardPaymentMethod>;

  /**
   * Charges a saved card with the customer away (off_session, confirmed at once). A decline or an
   * authentication the customer must complete is an answer, not an error: the intent comes back
   * with its status and lastError, as Stripe's card error carries it.
   */
  chargeSavedCard(
    input: {
      amount: number;
      currency: 'gbp';
      customerId: string;
      paymentMethodId: string;
      description: string;
      metadata: Record<string, string>;
    },
    idempotencyKey: string,
  ): Promise<PaymentIntentView>;

  /** Throws CardRefusedError when the provider refuses (nothing refunded); other errors leave it unknown. */
  refund(
    input: { paymentIntentId: string; amount: number; metadata: Record<string, string> },
    idempotencyKey: string,
  ): Promise<RefundView>;

  /** Verifies the Stripe-Signature header over the raw body; throws CardSignatureError otherwise. */
  parseWebhook(rawBody: string, signature: string | undefined): CardEvent;
}
