import { invalidRequest, resourceMissing } from './errors.ts';
import { IntentLifecycle, type Attempted, type ConfirmInput, type SandboxContext } from './intents.ts';
import {
  newClientSecret,
  newId,
  unixSeconds,
  type ChargeJson,
  type CustomerJson,
  type IntentJson,
  type Metadata,
  type PaymentMethods,
  type PaymentIntentJson,
  type PaymentMethodRecord,
  type RefundJson,
  type SetupIntentJson,
} from './objects.ts';
import type { CardSandboxRepository } from './repository.ts';

/*
 * What the sandbox's Stripe API does, call by call, over typed input (api.ts reads Stripe's form
 * encoding into it; the browser routes call confirm and authenticate). One instance per
 * transaction: see IntentLifecycle.
 */

/** Stripe's smallest charge per currency (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). */
const MINIMUM_AMOUNT: Record<string, number> = { gbp: 30, usd: 50, eur: 50 };
const MAXIMUM_AMOUNT = 99_999_999;

const SYMBOLS: Record<string, string> = { gbp: '£', usd: '$', eur: '€' };
const money = (amount: number, currency: string) =>
  SYMBOLS[currency]
    ? `${SYMBOLS[currency]}${(amount / 100).toFixed(2)}`
    : `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;

export type PaymentIntentInput = {
  amount: number;
  currency: string;
  customer?: string;
  description?: string;
  metadata: Metadata;
  setupFutureUsage?: 'off_session' | 'on_session';
  paymentMethods: PaymentMethods;
  /** Confirmed at once (off-session charges of a saved card): `confirmWith` says with what. */
  confirm?: boolean;
  confirmWith?: ConfirmInput;
};

export type SetupIntentInput = {
  customer?: string;
  description?: string;
  metadata: Metadata;
  usage?: 'off_session' | 'on_session';
  paymentMethods: PaymentMethods;
};

export class SandboxOperations {
  private readonly lifecycle: IntentLifecycle;

  constructor(
    private readonly repo: CardSandboxRepository,
    private readonly context: SandboxContext,
  ) {
    this.lifecycle = new IntentLifecycle(repo, context);
  }

  private get created() {
    return unixSeconds(this.context.now);
  }

  async createCustomer(input: { email?: string; name?: string; description?: string; metadata: Metadata }) {
    const customer: CustomerJson = {
      id: newId('cus'),
      object: 'customer',
      created: this.created,
      livemode: false,
      email: input.email ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      metadata: input.metadata,
      invoice_settings: { default_payment_method: null },
    };
    await this.repo.insert(customer);
    return customer;
  }

  private async requireCustomer(id: string | undefined): Promise<string | null> {
    if (id === undefined) return null;
    if (!(await this.repo.find<CustomerJson>('customer', id))) throw resourceMissing('customer', id, 'customer');
    return id;
  }

  async createPaymentIntent(input: PaymentIntentInput): Promise<Attempted<PaymentIntentJson>> {
    const currency = input.currency.toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw invalidRequest(`Invalid currency: ${input.currency}.`, { param: 'currency' });
    const minimum = MINIMUM_AMOUNT[currency] ?? 50;
    if (input.amount < minimum) {
      throw invalidRequest(`Amount must be at least ${money(minimum, currency)} ${currency}`, {
        code: 'amount_too_small',
        param: 'amount',
      });
    }
    if (input.amount > MAXIMUM_AMOUNT) {
      throw invalidRequest(`Amount must be no more than ${money(MAXIMUM_AMOUNT, currency)}`, {
        code: 'amount_too_large',
        param: 'amount',
      });
    }
    // Stripe's rule for a server-side confirmation: a method of the Dashboard's may need a full-page
    // redirect, so without a return_url only cards (or allow_redirects=never) can be confirmed here.
    const { allowed, automatic } = input.paymentMethods;
    if (input.confirm && !allowed && automatic?.allow_redirects === 'always' && !input.confirmWith?.returnUrl) {
      throw invalidRequest(
        'This PaymentIntent is configured to accept payment methods enabled in your Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.',
      );
    }
    if (input.confirmWith?.offSession && !input.confirm) {
      throw invalidRequest('You may only specify `off_session` when `confirm` is true.', { param: 'off_session' });
    }
    const id = newId('pi');
    const intent: PaymentIntentJson = {
      id,
      object: 'payment_intent',
      created: this.created,
      livemode: false,
      amount: input.amount,
      amount_capturable: 0,
      amount_received: 0,
      currency,
      customer: await this.requireCustomer(input.customer),
      description: input.description ?? null,
      metadata: input.metadata,
      status: 'requires_payment_method',
      client_secret: newClientSecret(id),
      payment_method: null,
      allowed_payment_method_types: input.paymentMethods.allowed,
      payment_method_types: ['card'],
      automatic_payment_methods: input.paymentMethods.automatic,
      setup_future_usage: input.setupFutureUsage ?? null,
      capture_method: 'automatic',
      confirmation_method: 'automatic',
      last_payment_error: null,
      next_action: null,
      latest_charge: null,
      canceled_at: null,
      cancellation_reason: null,
    };
    await this.repo.insert(intent);
    if (!input.confirm) return { intent, failure: null };
    return this.lifecycle.confirm(intent, input.confirmWith ?? {});
  }

  async createSetupIntent(input: SetupIntentInput): Promise<SetupIntentJson> {
    const id = newId('seti');
    const intent: SetupIntentJson = {
      id,
      object: 'setup_intent',
      created: this.created,
      livemode: false,
      customer: await this.requireCustomer(input.customer),
      description: input.description ?? null,
      metadata: input.metadata,
      status: 'requires_payment_method',
      client_secret: newClientSecret(id),
      payment_method: null,
      allowed_payment_method_types: input.paymentMethods.allowed,
      payment_method_types: ['card'],
      automatic_payment_methods: input.paymentMethods.automatic,
      usage: input.usage ?? 'off_session',
      last_setup_error: null,
      next_action: null,
      cancellation_reason: null,
    };
    await this.repo.insert(intent);
    return intent;
  }

  /** The intent of this kind; `forUpdate` while it is about to change. */
  async intent<K extends IntentJson['object']>(
    object: K,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<Extract<IntentJson, { object: K }>> {
    const intent = await this.repo.find<Extract<IntentJson, { object: K }>>(object, id, options);
    if (!intent) throw resourceMissing(object, id, undefined);
    return intent;
  }

  async paymentMethod(id: string): Promise<PaymentMethodRecord> {
    const method = await this.repo.find<PaymentMethodRecord>('payment_method', id);
    if (!method) throw resourceMissing('payment_method', id);
    return method;
  }

  async confirm<K extends IntentJson['object']>(object: K, id: string, input: ConfirmInput) {
    return this.lifecycle.confirm(await this.intent(object, id, { forUpdate: true }), input);
  }

  async authenticate<K extends IntentJson['object']>(object: K, id: string, outcome: 'complete' | 'fail') {
    return this.lifecycle.authenticate(await this.intent(object, id, { forUpdate: true }), outcome);
  }

  /** Refunds (part of) a succeeded payment; never more than is left to refund, as Stripe refuses. */
  async createRefund(input: {
    paymentIntent?: string;
    charge?: string;
    amount?: number;
    metadata: Metadata;
    reason?: RefundJson['reason'];
  }) {
    let charge: ChargeJson | null = null;
    if (input.charge) {
      charge = await this.repo.find<ChargeJson>('charge', input.charge, { forUpdate: true });
      if (!charge) throw resourceMissing('charge', input.charge, 'charge');
    } else if (input.paymentIntent) {
      const intent = await this.repo.find<PaymentIntentJson>('payment_intent', input.paymentIntent, {
        forUpdate: true,
      });
      if (!intent) throw resourceMissing('payment_intent', input.paymentIntent, 'payment_intent');
      if (intent.status !== 'succeeded' || !intent.latest_charge) {
        throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
          code: 'charge_not_refundable',
          param: 'payment_intent',
        });
      }
      charge = await this.repo.find<ChargeJson>('charge', intent.latest_charge, { forUpdate: true });
    } else {
      throw invalidRequest(
        'One of the following params should be provided for this request: payment_intent or charge.',
        {
          code: 'parameter_missing',
        },
      );
    }
    if (!charge) throw invalidRequest('The charge of this payment could not be found.', { code: 'resource_missing' });
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) {
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    }
    const amount = input.amount ?? left;
    if (amount <= 0)
      throw invalidRequest('Invalid positive integer', { code: 'parameter_invalid_integer', param: 'amount' });
    if (amount > left) {
      throw invalidRequest(
        `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(left, charge.currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const refund: RefundJson = {
      id: newId('re'),
      object: 'refund',
      created: this.created,
      livemode: false,
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      metadata: input.metadata,
      reason: input.reason ?? null,
      status: 'succeeded',
    };
    const refunded: ChargeJson = {
      ...charge,
      amount_refunded: charge.amount_refunded + amount,
      refunded: charge.amount_refunded + amount === charge.amount,
    };
    await this.repo.insert(refund);
    await this.repo.update(refunded);
    await this.lifecycle.recordEvent('charge.refunded', refunded);
    return refund;
  }
}
