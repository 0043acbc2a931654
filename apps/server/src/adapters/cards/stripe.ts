import Stripe from 'stripe';
import { CARD_INTENT_STATUSES, type TCardIntentStatus } from '@connect/shared';
import {
  CardKeyInUseError,
  CardRefusedError,
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

/**
 * How far a webhook's signed timestamp may be from now, either way (Stripe's default tolerance,
 * 300 s). Stripe's SDK refuses only old ones; one dated ahead is refused here too (issue 27), so a
 * captured signature cannot be made to live longer by a clock set forward.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The `t=` of a Stripe-Signature header (unix seconds) read exactly as Stripe's SDK reads it
 * (`parseHeader`: items split on `,` and `=`, key `t` untrimmed, `parseInt`), so the timestamp
 * checked here is the one the signature is verified with. A header with more than one `t=` is
 * refused: the SDK keeps the last one, and Stripe never sends two (issue 27). null: none, or not
 * a number (the SDK would then skip its age check).
 */
function signedAt(header: string): number | null {
  const timestamps = header
    .split(',')
    .map((item) => item.split('='))
    .filter(([key]) => key === 't')
    .map(([, value]) => Number.parseInt(value ?? '', 10));
  if (timestamps.length > 1) throw new CardSignatureError('More than one timestamp in the Stripe-Signature header');
  const [seconds] = timestamps;
  return seconds !== undefined && Number.isInteger(seconds) ? seconds : null;
}

/**
 * Stripe's answer to a request whose idempotency key another request is still using (409
 * `idempotency_key_in_use`; the SDK retries a 409 itself first), as the port's CardKeyInUseError:
 * the caller sends the same request again shortly and gets the other one's result.
 */
async function keyed<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeError &&
      error.statusCode === 409 &&
      error.code === 'idempotency_key_in_use'
    ) {
      throw new CardKeyInUseError(error.message);
    }
    throw error;
  }
}

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
    const customer = await keyed(() =>
      this.stripe.customers.create(
        {
          ...(input.email ? { email: input.email } : {}),
          ...(input.name ? { name: input.name } : {}),
          metadata: { accountId: input.accountId },
        },
        { idempotencyKey },
      ),
    );
    return { id: customer.id };
  }

  async createPaymentIntent(input: Parameters<CardGateway['createPaymentIntent']>[0], idempotencyKey: string) {
    const intent = await keyed(() =>
      this.stripe.paymentIntents.create(
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
      ),
    );
    return paymentIntentView(intent);
  }

  async createSetupIntent(input: Parameters<CardGateway['createSetupIntent']>[0], idempotencyKey: string) {
    const intent = await keyed(() =>
      this.stripe.setupIntents.create(
        {
          customer: input.customerId,
          usage: 'off_session',
          metadata: input.metadata,
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey },
      ),
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
      const intent = await keyed(() =>
        this.stripe.paymentIntents.create(
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
        ),
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
    let refund: Stripe.Refund;
    try {
      refund = await keyed(() =>
        this.stripe.refunds.create(
          { payment_intent: input.paymentIntentId, amount: input.amount, metadata: input.metadata },
          { idempotencyKey },
        ),
      );
    } catch (error) {
      // Stripe refused the request (more than is left, nothing to refund…): nothing was refunded.
      // A timeout or a 5xx leaves the outcome unknown: thrown as it is; a 409 (the key in use by
      // another request) is CardKeyInUseError: the same key again gets that request's refund.
      if (error instanceof Stripe.errors.StripeError && [400, 402, 404].includes(error.statusCode ?? 0)) {
        throw new CardRefusedError(error.message, error.code ?? null);
      }
      throw error;
    }
    return {
      id: refund.id,
      status: refund.status ?? 'pending',
      amount: refund.amount,
      paymentIntentId: idOf(refund.payment_intent) ?? input.paymentIntentId,
    };
  }

  parseWebhook(rawBody: string, signature: string | undefined): CardEvent {
    if (!signature) throw new CardSignatureError('The Stripe-Signature header is missing.');
    const at = signedAt(signature);
    if (at === null) throw new CardSignatureError('Unable to extract the timestamp from the Stripe-Signature header');
    if (at > Date.now() / 1000 + WEBHOOK_TOLERANCE_SECONDS) {
      throw new CardSignatureError('Timestamp outside the tolerance zone (in the future)');
    }
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
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
