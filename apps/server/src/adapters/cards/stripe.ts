import Stripe from 'stripe';
import { CARD_INTENT_STATUSES, type TCardIntentStatus } from '@connect/shared';
import {
  CardSignatureError,
  type CardEvent,
  type CardFailure,
  type CardGateway,
  type CardMode,
  type CardPaymentMethod,
  type PaymentIntentView,
  type RefundView,
  type SetupIntentView,
} from './port.ts';

export type StripeCardGatewayOptions = {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  mode: CardMode;
  /** The embedded sandbox's address (127.0.0.1, its port, http); Stripe's own by default. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
};

type Expandable = string | { id: string } | null;
const idOf = (value: Expandable | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * Stripe's status. The SDK types statuses as open strings (Stripe may add one); one the platform
 * does not know is read as processing — neither paid nor failed — so it is looked at again later.
 */
const statusOf = (status: string): TCardIntentStatus =>
  (CARD_INTENT_STATUSES as readonly string[]).includes(status) ? (status as TCardIntentStatus) : 'processing';

function failureOf(
  error: Stripe.PaymentIntent.LastPaymentError | Stripe.SetupIntent.LastSetupError | null,
): CardFailure | null {
  if (!error) return null;
  return { code: error.code ?? error.type, declineCode: error.decline_code ?? null, message: error.message ?? '' };
}

function paymentIntentView(intent: Stripe.PaymentIntent): PaymentIntentView {
  const lastError = intent.last_payment_error ?? null;
  return {
    id: intent.id,
    status: statusOf(intent.status),
    amount: intent.amount,
    currency: intent.currency,
    clientSecret: intent.client_secret ?? '',
    customerId: idOf(intent.customer),
    // A declined attempt leaves the card it tried on the error, not on the intent.
    paymentMethodId: idOf(intent.payment_method) ?? idOf(lastError?.payment_method),
    lastError: failureOf(lastError),
    metadata: intent.metadata ?? {},
    redirectUrl:
      intent.next_action?.type === 'redirect_to_url' ? (intent.next_action.redirect_to_url?.url ?? null) : null,
  };
}

function setupIntentView(intent: Stripe.SetupIntent): SetupIntentView {
  const lastError = intent.last_setup_error ?? null;
  return {
    id: intent.id,
    status: statusOf(intent.status),
    clientSecret: intent.client_secret ?? '',
    customerId: idOf(intent.customer),
    paymentMethodId: idOf(intent.payment_method) ?? idOf(lastError?.payment_method),
    lastError: failureOf(lastError),
    metadata: intent.metadata ?? {},
  };
}

/**
 * The card port over Stripe's API with the official SDK: Stripe itself (mode 'stripe'), or the
 * embedded sandbox that answers the same API on 127.0.0.1 (mode 'sandbox'). Every create call
 * carries the caller's idempotency key, so the SDK's own retries (and the caller's) never make a
 * second customer, intent or refund.
 */
export class StripeCardGateway implements CardGateway {
  readonly mode: CardMode;
  readonly publishableKey: string;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(options: StripeCardGatewayOptions) {
    this.mode = options.mode;
    this.publishableKey = options.publishableKey;
    this.webhookSecret = options.webhookSecret;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Connect' },
      ...(options.host !== undefined ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.protocol !== undefined ? { protocol: options.protocol } : {}),
    });
  }

  async createCustomer(input: Parameters<CardGateway['createCustomer']>[0], idempotencyKey: string) {
    const customer = await this.stripe.customers.create(
      {
        ...(input.email ? { email: input.email } : {}),
        ...(input.name ? { name: input.name } : {}),
        metadata: { accountId: input.accountId },
      },
      { idempotencyKey },
    );
    return { id: customer.id };
  }

  async createPaymentIntent(input: Parameters<CardGateway['createPaymentIntent']>[0], idempotencyKey: string) {
    const intent = await this.stripe.paymentIntents.create(
      {
        amount: input.amount,
        currency: input.currency,
        customer: input.customerId,
        description: input.description,
        metadata: input.metadata,
        automatic_payment_methods: { enabled: true },
        ...(input.saveCard ? { setup_future_usage: 'off_session' as const } : {}),
      },
      { idempotencyKey },
    );
    return paymentIntentView(intent);
  }

  async createSetupIntent(input: Parameters<CardGateway['createSetupIntent']>[0], idempotencyKey: string) {
    const intent = await this.stripe.setupIntents.create(
      {
        customer: input.customerId,
        usage: 'off_session',
        metadata: input.metadata,
        automatic_payment_methods: { enabled: true },
      },
      { idempotencyKey },
    );
    return setupIntentView(intent);
  }

  async retrievePaymentIntent(id: string) {
    return paymentIntentView(await this.stripe.paymentIntents.retrieve(id));
  }

  async retrieveSetupIntent(id: string) {
    return setupIntentView(await this.stripe.setupIntents.retrieve(id));
  }

  async retrievePaymentMethod(id: string): Promise<CardPaymentMethod> {
    const method = await this.stripe.paymentMethods.retrieve(id);
    if (!method.card) throw new Error(`Payment method ${id} is not a card (${method.type})`);
    return {
      id: method.id,
      brand: method.card.brand,
      last4: method.card.last4,
      expMonth: method.card.exp_month,
      expYear: method.card.exp_year,
    };
  }

  async chargeSavedCard(input: Parameters<CardGateway['chargeSavedCard']>[0], idempotencyKey: string) {
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency,
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          description: input.description,
          metadata: input.metadata,
          // Cards only: confirmed here without a return URL, Stripe refuses the Dashboard's
          // automatic methods (some of them redirect).
          allowed_payment_method_types: ['card'],
          confirm: true,
          off_session: true,
        },
        { idempotencyKey },
      );
      return paymentIntentView(intent);
    } catch (error) {
      // Stripe answers a decline (and an authentication the absent customer cannot complete) as a
      // 402 card error carrying the intent, now at requires_payment_method: that is the answer.
      if (error instanceof Stripe.errors.StripeCardError && error.payment_intent) {
        return paymentIntentView(error.payment_intent);
      }
      throw error;
    }
  }

  async refund(input: Parameters<CardGateway['refund']>[0], idempotencyKey: string): Promise<RefundView> {
    const refund = await this.stripe.refunds.create(
      { payment_intent: input.paymentIntentId, amount: input.amount, metadata: input.metadata },
      { idempotencyKey },
    );
    return {
      id: refund.id,
      status: refund.status ?? 'pending',
      amount: refund.amount,
      paymentIntentId: idOf(refund.payment_intent) ?? input.paymentIntentId,
    };
  }

  parseWebhook(rawBody: string, signature: string | undefined): CardEvent {
    if (!signature) throw new CardSignatureError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new CardSignatureError(error.message);
      throw error;
    }
    const object = event.data.object as { object?: string };
    if (object.object === 'payment_intent') {
      return {
        id: event.id,
        type: event.type,
        object: 'payment_intent',
        paymentIntent: paymentIntentView(object as Stripe.PaymentIntent),
      };
    }
    if (object.object === 'setup_intent') {
      return {
        id: event.id,
        type: event.type,
        object: 'setup_intent',
        setupIntent: setupIntentView(object as Stripe.SetupIntent),
      };
    }
    return { id: event.id, type: event.type, object: 'other' };
  }
}
