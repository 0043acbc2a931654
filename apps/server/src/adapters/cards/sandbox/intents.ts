import { invalidRequest, resourceMissing, unexpectedState } from './errors.ts';
import {
  newId,
  paymentMethodFrom,
  publicJson,
  unixSeconds,
  type ChargeJson,
  type IntentJson,
  type LastError,
  type PaymentIntentJson,
  type PaymentMethodRecord,
} from './objects.ts';
import type { CardSandboxRepository } from './repository.ts';
import { FAILURES, checkCard, hasExpired, outcomeOf, type CardFailure, type CardInput } from './test-cards.ts';

/*
 * The life of an intent once a card is given to it: what Stripe's confirmation and its test
 * authentication page do. One instance works inside one transaction (the repository it is given),
 * so the intent, the card, the charge and the webhook events it records commit together.
 */

export type SandboxContext = { publicUrl: string; apiVersion: string; now: Date };

export type ConfirmInput = {
  /** A card typed in the browser (or sent as payment_method_data[card]). */
  card?: CardInput;
  /** A saved card (pm_…). */
  paymentMethod?: string;
  returnUrl?: string;
  /** The customer is away: authentication is impossible, so a card that needs it is declined. */
  offSession?: boolean;
};

/** The intent after the attempt, and the card error Stripe answers (402) when the attempt failed. */
export type Attempted<T extends IntentJson> = { intent: T; failure: LastError | null };

const CONFIRMABLE = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

const AUTHENTICATION_FAILED: Record<IntentJson['object'], CardFailure | LastError> = {
  payment_intent: {
    type: 'invalid_request_error',
    code: 'payment_intent_authentication_failure',
    message:
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
  },
  setup_intent: {
    type: 'invalid_request_error',
    code: 'setup_intent_authentication_failure',
    message: 'The latest attempt to set up the payment method has failed because authentication failed.',
  },
};

const EVENTS = {
  payment_intent: {
    succeeded: 'payment_intent.succeeded',
    failed: 'payment_intent.payment_failed',
    action: 'payment_intent.requires_action',
  },
  setup_intent: {
    succeeded: 'setup_intent.succeeded',
    failed: 'setup_intent.setup_failed',
    action: 'setup_intent.requires_action',
  },
} as const;

export class IntentLifecycle {
  constructor(
    private readonly repo: CardSandboxRepository,
    private readonly context: SandboxContext,
  ) {}

  /** Records a webhook event as Stripe sends it; it is delivered once the transaction commits. */
  async recordEvent(type: string, object: object): Promise<void> {
    const id = newId('evt');
    const payload = JSON.stringify({
      id,
      object: 'event',
      api_version: this.context.apiVersion,
      created: unixSeconds(this.context.now),
      data: { object: publicJson(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    await this.repo.recordEvent({ id, type, payload, createdAt: this.context.now });
  }

  /** Confirms the intent with a card, as Stripe does; a decline is an answer (`failure`), not an error. */
  async confirm<T extends IntentJson>(intent: T, input: ConfirmInput): Promise<Attempted<T>> {
    if (!CONFIRMABLE.has(intent.status)) {
      throw unexpectedState(
        intent.object,
        intent.status === 'succeeded'
          ? `You cannot confirm this ${kindName(intent)} because it has already succeeded after being previously confirmed.`
          : `You cannot confirm this ${kindName(intent)} because it has a status of ${intent.status}.`,
      );
    }
    const offSession = input.offSession ?? false;
    let method: PaymentMethodRecord;
    if (input.card) {
      const checked = checkCard(input.card, this.context.now);
      if ('failure' in checked) return this.fail(intent, checked.failure, null);
      method = paymentMethodFrom(checked.card, this.context.now, input.card.cvc !== undefined);
      await this.repo.insert(method);
    } else {
      const id = input.paymentMethod ?? intent.payment_method;
      if (!id) {
        throw unexpectedState(
          intent.object,
          `You cannot confirm this ${kindName(intent)} because it’s missing a payment method. Specify a payment method.`,
        );
      }
      const found = await this.repo.find<PaymentMethodRecord>('payment_method', id, { forUpdate: true });
      if (!found) throw resourceMissing('payment_method', id, 'payment_method');
      // A card charged with the customer away must be one saved to that customer.
      if (offSession && found.customer !== intent.customer) {
        throw invalidRequest(
          `The PaymentMethod ${id} is not attached to the customer ${intent.customer ?? '(none)'}.`,
          {
            code: 'payment_method_unexpected_state',
            param: 'payment_method',
          },
        );
      }
      method = found;
    }
    if (hasExpired(method.card.exp_month, method.card.exp_year, this.context.now)) {
      return this.fail(intent, FAILURES.expired, method);
    }
    const attempt = intent.object === 'payment_intent' ? 'payment' : 'setup';
    const outcome = outcomeOf(method.sandbox.behaviour, attempt, { offSession, setUp: method.sandbox.setUp });
    if (outcome.kind === 'succeed') return { intent: await this.succeed(intent, method), failure: null };
    if (outcome.kind === 'authenticate')
      return { intent: await this.requireAction(intent, method, input.returnUrl), failure: null };
    return this.fail(intent, outcome.failure, method);
  }

  /**
   * The test authentication page's answer (Stripe's "Complete" / "Fail" buttons): the intent
   * succeeds, or fails with the authentication failure; answers the return URL the customer
   * goes back to, with Stripe's `payment_intent` / `setup_intent` and `redirect_status`.
   */
  async authenticate<T extends IntentJson>(
    intent: T,
    outcome: 'complete' | 'fail',
  ): Promise<{ intent: T; returnUrl: string | null }> {
    if (intent.status !== 'requires_action' || !intent.payment_method) {
      throw unexpectedState(
        intent.object,
        `This ${kindName(intent)} does not wait for authentication: its status is ${intent.status}.`,
      );
    }
    const returnTo = intent.next_action?.redirect_to_url.return_url ?? null;
    const method = await this.repo.find<PaymentMethodRecord>('payment_method', intent.payment_method, {
      forUpdate: true,
    });
    if (!method) throw resourceMissing('payment_method', intent.payment_method, 'payment_method');
    const done =
      outcome === 'complete'
        ? await this.succeed(intent, method)
        : (await this.fail(intent, AUTHENTICATION_FAILED[intent.object], method)).intent;
    return { intent: done, returnUrl: returnTo && withRedirectParams(returnTo, done) };
  }

  private async succeed<T extends IntentJson>(intent: T, method: PaymentMethodRecord): Promise<T> {
    const done: IntentJson = { ...intent, status: 'succeeded', payment_method: method.id, next_action: null };
    // Saving the card for later: a SetupIntent, or a payment with setup_future_usage, attaches it.
    const saves = done.object === 'setup_intent' || done.setup_future_usage !== null;
    if (done.object === 'payment_intent') {
      done.last_payment_error = null;
      done.amount_received = done.amount;
      done.latest_charge = (await this.charge(done, method)).id;
    } else {
      done.last_setup_error = null;
    }
    if (saves && done.customer && (method.customer === null || method.customer === done.customer)) {
      await this.repo.update({ ...method, customer: done.customer, sandbox: { ...method.sandbox, setUp: true } });
    }
    await this.repo.update(done);
    await this.recordEvent(EVENTS[done.object].succeeded, done);
    return done as T;
  }

  private async charge(intent: PaymentIntentJson, method: PaymentMethodRecord): Promise<ChargeJson> {
    const charge: ChargeJson = {
      id: newId('ch'),
      object: 'charge',
      created: unixSeconds(this.context.now),
      livemode: false,
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      customer: intent.customer,
      description: intent.description,
      metadata: intent.metadata,
      payment_intent: intent.id,
      payment_method: method.id,
      paid: true,
      captured: true,
      refunded: false,
      status: 'succeeded',
    };
    await this.repo.insert(charge);
    return charge;
  }

  private async requireAction<T extends IntentJson>(
    intent: T,
    method: PaymentMethodRecord,
    returnUrl?: string,
  ): Promise<T> {
    // The portal's test authentication page (the SPA's), standing in for Stripe's hooks.stripe.com page.
    const page = new URL(`${this.context.publicUrl}/card-sandbox/authenticate`);
    page.searchParams.set('intent', intent.id);
    page.searchParams.set('client_secret', intent.client_secret);
    if (returnUrl) page.searchParams.set('return_url', returnUrl);
    const waiting: IntentJson = {
      ...intent,
      status: 'requires_action',
      payment_method: method.id,
      next_action: {
        type: 'redirect_to_url',
        redirect_to_url: { url: page.toString(), return_url: returnUrl ?? null },
      },
    };
    if (waiting.object === 'payment_intent') waiting.last_payment_error = null;
    else waiting.last_setup_error = null;
    await this.repo.update(waiting);
    await this.recordEvent(EVENTS[waiting.object].action, waiting);
    return waiting as T;
  }

  private async fail<T extends IntentJson>(
    intent: T,
    failure: CardFailure | LastError,
    method: PaymentMethodRecord | null,
  ): Promise<Attempted<T>> {
    const error: LastError = {
      ...failure,
      ...(failure.code ? { doc_url: `https://docs.stripe.com/error-codes/${failure.code.replaceAll('_', '-')}` } : {}),
      ...(method ? { payment_method: publicJson(method) } : {}),
    };
    const failed: IntentJson = {
      ...intent,
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
    };
    if (failed.object === 'payment_intent') failed.last_payment_error = error;
    else failed.last_setup_error = error;
    await this.repo.update(failed);
    await this.recordEvent(EVENTS[failed.object].failed, failed);
    return { intent: failed as T, failure: error };
  }
}

const kindName = (intent: IntentJson) => (intent.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent');

/** Stripe appends the intent, its client secret and how the redirect ended to the return URL. */
function withRedirectParams(returnUrl: string, intent: IntentJson): string {
  const url = new URL(returnUrl);
  url.searchParams.set(intent.object, intent.id);
  url.searchParams.set(`${intent.object}_client_secret`, intent.client_secret);
  url.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
  return url.toString();
}
