import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cardSandboxEvents, cardSandboxObjects, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { and, eq, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSettings } from '@connect/db';
import { SecretBox } from '../../lib/secret-box.ts';
import { createCardGateway, sandboxWebhookSecret } from './create-gateway.ts';
import { CardKeyInUseError, CardRefusedError, CardSignatureError, type CardGateway } from './port.ts';
import { CardSandbox, SANDBOX_KEYS } from './sandbox/index.ts';
import { stripeSignature } from './sandbox/webhooks.ts';
import { StripeCardGateway } from './stripe.ts';

/*
 * The card port's contract, held by the real StripeCardGateway (the stripe SDK) against the
 * embedded sandbox on a free port: what Stripe's test mode does with its test cards is what the
 * platform sees here. The browser's part (the card form, the test authentication page) goes
 * through the sandbox's browser core, as the SPA's calls do.
 */

const log = pino({ level: 'silent' });
const PUBLIC_URL = 'http://portal.test';
const RETURN_URL = 'http://portal.test/billing/card/return';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

type Delivery = { payload: string; signature: string };

let dbh: DbHandle;
let gateway: CardGateway;
let sandbox: CardSandbox;
let port: number;
const deliveries: Delivery[] = [];
const box = new SecretBox('contract-test-key');

beforeAll(async () => {
  dbh = await createTestDatabase();
  const created = await createCardGateway(
    { publicUrl: PUBLIC_URL, cards: { stripe: undefined, sandbox: { allowed: true, port: 0 } } },
    {
      dbh,
      box,
      log,
      deliver: async (payload, signature) => {
        deliveries.push({ payload, signature });
        return 200;
      },
    },
  );
  gateway = created.gateway!;
  sandbox = created.sandbox!;
  port = await sandbox.listen();
});
afterAll(async () => {
  await sandbox?.stop();
  await dbh?.close();
});

const key = () => randomUUID();
const card = (number: string, expYear = NEXT_YEAR) => ({ number, expMonth: 12, expYear, cvc: '123' });

async function newCustomer() {
  return gateway.createCustomer({ accountId: randomUUID(), email: 'ada@example.com', name: 'Ada Lovelace' }, key());
}

async function newPayment(customerId: string, input: { amount?: number; saveCard?: boolean } = {}) {
  return gateway.createPaymentIntent(
    {
      amount: input.amount ?? 1250,
      currency: 'gbp',
      customerId,
      description: 'Connect order',
      metadata: { orderId: randomUUID() },
      saveCard: input.saveCard ?? false,
    },
    key(),
  );
}

/** The customer types a card into the sandbox's form for this intent. */
function confirmInBrowser(intent: { id: string; clientSecret: string }, number: string, expYear?: number) {
  const object = intent.id.startsWith('pi_') ? 'payment_intent' : 'setup_intent';
  return sandbox.browser.confirm(object, intent.id, {
    clientSecret: intent.clientSecret,
    card: card(number, expYear),
    returnUrl: RETURN_URL,
  });
}

/** A card saved through a SetupIntent (authenticated when it asks), as the platform keeps it for monthly charges. */
async function savedCard(number: string) {
  const customer = await newCustomer();
  const setup = await gateway.createSetupIntent({ customerId: customer.id, metadata: { purpose: 'SAVE_CARD' } }, key());
  const confirmed = await confirmInBrowser(setup, number);
  if (confirmed.status === 'requires_action') {
    await sandbox.browser.authenticate('setup_intent', setup.id, {
      clientSecret: setup.clientSecret,
      outcome: 'complete',
    });
  }
  const done = await gateway.retrieveSetupIntent(setup.id);
  return { customerId: customer.id, setup: done, paymentMethodId: done.paymentMethodId! };
}

const charge = (saved: { customerId: string; paymentMethodId: string }, amount = 990) =>
  gateway.chargeSavedCard(
    {
      amount,
      currency: 'gbp',
      customerId: saved.customerId,
      paymentMethodId: saved.paymentMethodId,
      description: 'Monthly bill',
      metadata: { orderId: randomUUID() },
    },
    key(),
  );

describe('StripeCardGateway against the card sandbox', () => {
  it('creates a customer and a PaymentIntent as Stripe answers them', async () => {
    const customer = await newCustomer();
    expect(customer.id).toMatch(/^cus_[A-Za-z0-9]+$/);
    const intent = await newPayment(customer.id, { saveCard: true });
    expect(intent).toMatchObject({
      status: 'requires_payment_method',
      amount: 1250,
      currency: 'gbp',
      customerId: customer.id,
      paymentMethodId: null,
      lastError: null,
      redirectUrl: null,
    });
    expect(intent.id).toMatch(/^pi_[A-Za-z0-9]+$/);
    expect(intent.clientSecret.startsWith(`${intent.id}_secret_`)).toBe(true);
    expect(intent.metadata.orderId).toMatch(/^[0-9a-f-]{36}$/);
    expect(gateway.mode).toBe('sandbox');
    expect(gateway.publishableKey).toBe(SANDBOX_KEYS.publishableKey);
  });

  it('4242 4242 4242 4242 pays, and the card it paid with is readable (brand, last four, expiry)', async () => {
    const intent = await newPayment((await newCustomer()).id);
    expect(await confirmInBrowser(intent, '4242 4242 4242 4242')).toEqual({
      status: 'succeeded',
      lastError: null,
      redirectUrl: null,
    });
    const paid = await gateway.retrievePaymentIntent(intent.id);
    expect(paid.status).toBe('succeeded');
    expect(paid.paymentMethodId).toMatch(/^pm_/);
    expect(await gateway.retrievePaymentMethod(paid.paymentMethodId!)).toEqual({
      id: paid.paymentMethodId,
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: NEXT_YEAR,
    });
  });

  it.each([
    ['4000000000000002', { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' }],
    [
      '4000000000009995',
      { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    ],
    ['4000000000000341', { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' }],
    ['4242424242424241', { code: 'incorrect_number', declineCode: null, message: 'Your card number is incorrect.' }],
  ])('%s is declined with Stripe’s reason, and the intent waits for another card', async (number, failure) => {
    const intent = await newPayment((await newCustomer()).id);
    const answer = await confirmInBrowser(intent, number);
    expect(answer).toEqual({ status: 'requires_payment_method', lastError: failure, redirectUrl: null });
    const seen = await gateway.retrievePaymentIntent(intent.id);
    expect(seen).toMatchObject({ status: 'requires_payment_method', lastError: failure });
    // A typed card that Stripe tokenised is kept on the error; a number it refused never became one.
    expect(seen.paymentMethodId === null).toBe(number === '4242424242424241');
    // Confirmed again with a good card, the same intent pays.
    expect((await confirmInBrowser(intent, '4242424242424242')).status).toBe('succeeded');
    expect(await gateway.retrievePaymentIntent(intent.id)).toMatchObject({ status: 'succeeded', lastError: null });
  });

  it('an expired card is declined with expired_card', async () => {
    const intent = await newPayment((await newCustomer()).id);
    const answer = await confirmInBrowser(intent, '4242424242424242', NEXT_YEAR - 3);
    expect(answer.lastError).toEqual({
      code: 'expired_card',
      declineCode: 'expired_card',
      message: 'Your card has expired.',
    });
  });

  it('4000 0025 0000 3155 asks for authentication; completed, it pays and is kept for off-session charges', async () => {
    const customer = await newCustomer();
    const intent = await newPayment(customer.id, { saveCard: true });
    const answer = await confirmInBrowser(intent, '4000002500003155');
    expect(answer.status).toBe('requires_action');
    const page = new URL(answer.redirectUrl!);
    expect(`${page.origin}${page.pathname}`).toBe(`${PUBLIC_URL}/card-sandbox/authenticate`);
    expect(Object.fromEntries(page.searchParams)).toEqual({
      intent: intent.id,
      client_secret: intent.clientSecret,
      return_url: RETURN_URL,
    });
    expect(await gateway.retrievePaymentIntent(intent.id)).toMatchObject({
      status: 'requires_action',
      redirectUrl: answer.redirectUrl,
    });

    const done = await sandbox.browser.authenticate('payment_intent', intent.id, {
      clientSecret: intent.clientSecret,
      outcome: 'complete',
    });
    expect(done.status).toBe('succeeded');
    const back = new URL(done.returnUrl!);
    expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      payment_intent: intent.id,
      payment_intent_client_secret: intent.clientSecret,
      redirect_status: 'succeeded',
    });
    const paid = await gateway.retrievePaymentIntent(intent.id);
    expect(paid).toMatchObject({ status: 'succeeded', redirectUrl: null });
    // Saved with setup_future_usage: the customer is away for the next charge, and it goes through.
    expect(await charge({ customerId: customer.id, paymentMethodId: paid.paymentMethodId! })).toMatchObject({
      status: 'succeeded',
      lastError: null,
    });
  });

  it('a failed authentication leaves the intent waiting for a card, with Stripe’s reason', async () => {
    const intent = await newPayment((await newCustomer()).id);
    await confirmInBrowser(intent, '4000002760003184');
    const failed = await sandbox.browser.authenticate('payment_intent', intent.id, {
      clientSecret: intent.clientSecret,
      outcome: 'fail',
    });
    expect(failed.status).toBe('requires_payment_method');
    expect(new URL(failed.returnUrl!).searchParams.get('redirect_status')).toBe('failed');
    expect((await gateway.retrievePaymentIntent(intent.id)).lastError).toMatchObject({
      code: 'payment_intent_authentication_failure',
    });
    // Nothing waits for authentication any more: the page's buttons are refused.
    await expect(
      sandbox.browser.authenticate('payment_intent', intent.id, {
        clientSecret: intent.clientSecret,
        outcome: 'complete',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('saves a card with a SetupIntent and charges it with the customer away', async () => {
    const saved = await savedCard('4242424242424242');
    expect(saved.setup).toMatchObject({ status: 'succeeded', customerId: saved.customerId, lastError: null });
    expect(saved.setup.id).toMatch(/^seti_/);
    const charged = await charge(saved, 4321);
    expect(charged).toMatchObject({
      status: 'succeeded',
      amount: 4321,
      customerId: saved.customerId,
      paymentMethodId: saved.paymentMethodId,
      lastError: null,
    });
  });

  it('4000 0000 0000 0341 is saved, but its off-session charge is declined — answered, not thrown', async () => {
    const saved = await savedCard('4000000000000341');
    expect(saved.setup.status).toBe('succeeded');
    const charged = await charge(saved);
    expect(charged.id).toMatch(/^pi_/);
    expect(charged).toMatchObject({
      status: 'requires_payment_method',
      lastError: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
      paymentMethodId: saved.paymentMethodId,
    });
    expect((await gateway.retrievePaymentIntent(charged.id)).status).toBe('requires_payment_method');
  });

  it('4000 0027 6000 3184 authenticates to be saved, and every off-session charge needs authentication', async () => {
    const saved = await savedCard('4000002760003184');
    expect(saved.setup.status).toBe('succeeded');
    expect(await charge(saved)).toMatchObject({
      status: 'requires_payment_method',
      lastError: { code: 'authentication_required', declineCode: 'authentication_required' },
    });
  });

  it('4000 0025 0000 3155 saved through a SetupIntent is charged off session without authentication', async () => {
    const saved = await savedCard('4000002500003155');
    expect((await charge(saved)).status).toBe('succeeded');
  });

  it('a declined card is not saved: the SetupIntent fails with the reason', async () => {
    const customer = await newCustomer();
    const setup = await gateway.createSetupIntent({ customerId: customer.id, metadata: {} }, key());
    const answer = await confirmInBrowser(setup, '4000000000000002');
    expect(answer).toEqual({
      status: 'requires_payment_method',
      lastError: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
      redirectUrl: null,
    });
    expect(await gateway.retrieveSetupIntent(setup.id)).toMatchObject({
      status: 'requires_payment_method',
      lastError: { code: 'card_declined' },
    });
  });

  it('an idempotency key answers the first result again: one intent, never two', async () => {
    const customer = await newCustomer();
    const orderId = randomUUID();
    const input = {
      amount: 5000,
      currency: 'gbp' as const,
      customerId: customer.id,
      description: 'Once',
      metadata: { orderId },
      saveCard: false,
    };
    const idempotencyKey = key();
    const first = await gateway.createPaymentIntent(input, idempotencyKey);
    const second = await gateway.createPaymentIntent(input, idempotencyKey);
    expect(second).toEqual(first);
    const rows = await dbh.db
      .select()
      .from(cardSandboxObjects)
      .where(
        and(
          eq(cardSandboxObjects.object, 'payment_intent'),
          sql`${cardSandboxObjects.data}->'metadata'->>'orderId' = ${orderId}`,
        ),
      );
    expect(rows).toHaveLength(1);
    // The same key with other parameters is refused, as Stripe refuses it.
    await expect(gateway.createPaymentIntent({ ...input, amount: 6000 }, idempotencyKey)).rejects.toMatchObject({
      type: 'StripeIdempotencyError',
    });
    const customerKey = key();
    const once = await gateway.createCustomer({ accountId: orderId, email: null, name: null }, customerKey);
    expect(await gateway.createCustomer({ accountId: orderId, email: null, name: null }, customerKey)).toEqual(once);
  });

  it('an off-session decline is Stripe’s 402 card error carrying the intent', async () => {
    const saved = await savedCard('4000000000000341');
    const res = await fetch(`http://127.0.0.1:${port}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SANDBOX_KEYS.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        amount: '700',
        currency: 'gbp',
        customer: saved.customerId,
        payment_method: saved.paymentMethodId,
        confirm: 'true',
        off_session: 'true',
        'allowed_payment_method_types[0]': 'card',
        'metadata[orderId]': 'order-1',
      }),
    });
    expect(res.status).toBe(402);
    const body = (await res.json()) as { error: Record<string, unknown> & { payment_intent: Record<string, unknown> } };
    expect(body.error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline' });
    expect(body.error.payment_intent).toMatchObject({
      object: 'payment_intent',
      status: 'requires_payment_method',
      amount: 700,
      livemode: false,
      metadata: { orderId: 'order-1' },
      last_payment_error: { code: 'card_declined', type: 'card_error' },
    });
  });

  it('reads Stripe’s form encoding and refuses what Stripe refuses', async () => {
    const post = async (path: string, body: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${SANDBOX_KEYS.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, Record<string, unknown>> };
    };
    const customer = await post(
      '/v1/customers',
      'email=ada%40example.com&metadata[accountId]=acc-1&metadata[plan]=pro',
    );
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({
      object: 'customer',
      email: 'ada@example.com',
      metadata: { accountId: 'acc-1', plan: 'pro' },
      livemode: false,
      created: expect.any(Number),
    });
    const refusals = [
      [await post('/v1/payment_intents', 'currency=gbp'), 'parameter_missing'],
      [await post('/v1/payment_intents', 'amount=29&currency=gbp'), 'amount_too_small'],
      [await post('/v1/payment_intents', 'amount=1.5&currency=gbp'), 'parameter_invalid_integer'],
      [await post('/v1/payment_intents', 'amount=500&currency=gbp&payment_method_types[0]=card'), 'parameter_unknown'],
      [
        await post('/v1/payment_intents', 'amount=500&currency=gbp&allowed_payment_method_types[0]=paypal'),
        'payment_method_unsupported_type',
      ],
      [await post('/v1/payment_intents', 'amount=500&currency=gbp&metadata[__proto__][x]=1'), 'parameter_unknown'],
      [await post('/v1/payment_intents', `amount=500&currency=gbp&customer=cus_nobody`), 'resource_missing'],
    ] as const;
    for (const [answer, code] of refusals) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code });
    }
    // Confirmed at once without a return URL, the Dashboard's methods (some redirect) are refused.
    const saved = await savedCard('4242424242424242');
    const redirects = await post(
      '/v1/payment_intents',
      `amount=500&currency=gbp&customer=${saved.customerId}&payment_method=${saved.paymentMethodId}&confirm=true&off_session=true`,
    );
    expect(redirects.status).toBe(400);
    expect(String(redirects.body.error!.message)).toContain('allow_redirects');
  });

  it('answers Stripe’s 409 idempotency_key_in_use (another request with the key in flight) as CardKeyInUseError', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(409, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            code: 'idempotency_key_in_use',
            message: 'There is currently another in-progress request using this Stripe-Idempotency-Key.',
          },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const busy = new StripeCardGateway({
        secretKey: 'sk_test_busy',
        publishableKey: 'pk_test_busy',
        webhookSecret: 'whsec_busy',
        mode: 'stripe',
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        protocol: 'http',
      });
      const input = {
        amount: 1250,
        currency: 'gbp' as const,
        customerId: 'cus_1',
        description: 'Connect order',
        metadata: {},
        saveCard: false,
      };
      const error = await busy.createPaymentIntent(input, key()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CardKeyInUseError);
      expect(error).toMatchObject({ code: 'idempotency_key_in_use' });
      // Not a refusal: a refund whose key is in use may still be made by the other request.
      const refund = await busy
        .refund({ paymentIntentId: 'pi_1', amount: 100, metadata: {} }, key())
        .catch((caught: unknown) => caught);
      expect(refund).toBeInstanceOf(CardKeyInUseError);
      expect(refund).not.toBeInstanceOf(CardRefusedError);
    } finally {
      server.close();
    }
  }, 20_000);

  it('refunds part of a payment, then the rest, and refuses more than is left', async () => {
    const intent = await newPayment((await newCustomer()).id, { amount: 1000 });
    await confirmInBrowser(intent, '4242424242424242');
    const first = await gateway.refund(
      { paymentIntentId: intent.id, amount: 400, metadata: { reason: 'goodwill' } },
      key(),
    );
    expect(first).toMatchObject({ status: 'succeeded', amount: 400, paymentIntentId: intent.id });
    expect(first.id).toMatch(/^re_/);
    // Stripe's refusal (a 400: nothing was refunded) is the port's CardRefusedError.
    const tooMuch = gateway.refund({ paymentIntentId: intent.id, amount: 601, metadata: {} }, key());
    await expect(tooMuch).rejects.toBeInstanceOf(CardRefusedError);
    await expect(tooMuch).rejects.toMatchObject({ code: 'amount_too_large' });
    expect((await gateway.refund({ paymentIntentId: intent.id, amount: 600, metadata: {} }, key())).amount).toBe(600);
    await expect(gateway.refund({ paymentIntentId: intent.id, amount: 1, metadata: {} }, key())).rejects.toMatchObject({
      constructor: CardRefusedError,
      code: 'charge_already_refunded',
    });
  });

  it('listens on a free port when the configured one is taken', async () => {
    const second = new CardSandbox({
      db: dbh.db,
      log,
      webhookSecret: sandbox.webhookSecret,
      port,
      publicUrl: PUBLIC_URL,
      deliver: async () => 200,
    });
    try {
      const elsewhere = await second.listen();
      expect(elsewhere).not.toBe(port);
      expect((await fetch(`http://127.0.0.1:${elsewhere}/v1/payment_methods/pm_x`)).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('refuses a wrong secret key and an unknown id as Stripe does', async () => {
    const stranger = new StripeCardGateway({
      ...SANDBOX_KEYS,
      webhookSecret: sandbox.webhookSecret,
      secretKey: 'sk_test_wrong',
      mode: 'sandbox',
      host: '127.0.0.1',
      port,
      protocol: 'http',
    });
    await expect(stranger.createCustomer({ accountId: 'a', email: null, name: null }, key())).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });
    const res = await fetch(`http://127.0.0.1:${port}/v1/payment_intents/pi_x`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: object }).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'api_key_invalid',
    });
    await expect(gateway.retrievePaymentIntent('pi_unknown')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
    });
  });
});

/** Delivers (to `deliveries`) whatever earlier tests left pending. */
async function drain() {
  while ((await sandbox.deliverDue()) > 0);
}

describe('the sandbox’s webhooks', () => {
  it('are delivered in order, signed as Stripe signs them, and verified by parseWebhook', async () => {
    await drain();
    deliveries.length = 0;
    const intent = await newPayment((await newCustomer()).id);
    await confirmInBrowser(intent, '4000002500003155');
    await sandbox.browser.authenticate('payment_intent', intent.id, {
      clientSecret: intent.clientSecret,
      outcome: 'complete',
    });
    await gateway.refund({ paymentIntentId: intent.id, amount: 100, metadata: {} }, key());
    expect(await sandbox.deliverDue()).toBe(3);
    const events = deliveries.map((d) => gateway.parseWebhook(d.payload, d.signature));
    expect(events.map((e) => [e.type, e.object])).toEqual([
      ['payment_intent.requires_action', 'payment_intent'],
      ['payment_intent.succeeded', 'payment_intent'],
      ['charge.refunded', 'other'],
    ]);
    const succeeded = events[1]!;
    expect(succeeded.id).toMatch(/^evt_/);
    expect(succeeded.object === 'payment_intent' && succeeded.paymentIntent).toMatchObject({
      id: intent.id,
      status: 'succeeded',
    });
    const raw = JSON.parse(deliveries[1]!.payload) as Record<string, unknown>;
    expect(raw).toMatchObject({
      object: 'event',
      livemode: false,
      api_version: Stripe.API_VERSION,
      data: { object: { id: intent.id } },
    });
    expect(deliveries[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await sandbox.deliverDue()).toBe(0); // delivered once
  });

  it('refuses a tampered body, another secret’s signature and a missing header', () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: {} },
    });
    const signature = stripeSignature(payload, sandbox.webhookSecret);
    expect(gateway.parseWebhook(payload, signature)).toMatchObject({ id: 'evt_1', object: 'other' });
    expect(() => gateway.parseWebhook(payload.replace('evt_1', 'evt_2'), signature)).toThrow(CardSignatureError);
    expect(() => gateway.parseWebhook(payload, stripeSignature(payload, 'whsec_other'))).toThrow(CardSignatureError);
    expect(() => gateway.parseWebhook(payload, undefined)).toThrow(CardSignatureError);
    expect(() => gateway.parseWebhook(payload, 'garbage')).toThrow(CardSignatureError);
  });

  it('signs with the installation’s own webhook secret, generated once and stored sealed', async () => {
    expect(sandbox.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    // Another node of the installation (the same database) signs and verifies with the same one.
    expect(await sandboxWebhookSecret(dbh.db, box)).toBe(sandbox.webhookSecret);
    const [stored] = await dbh.db.select().from(appSettings).where(eq(appSettings.key, 'cards.sandbox_webhook_secret'));
    expect(stored!.value.startsWith('v1.')).toBe(true);
    expect(stored!.value).not.toContain(sandbox.webhookSecret.slice(6));
    expect(box.open(stored!.value)).toBe(sandbox.webhookSecret);
    // Another installation (its own database) has its own.
    const elsewhere = await createTestDatabase();
    try {
      expect(await sandboxWebhookSecret(elsewhere.db, box)).not.toBe(sandbox.webhookSecret);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a signature dated more than 300 s away, ahead or behind, with Stripe as with the sandbox', () => {
    const stripe = new StripeCardGateway({
      secretKey: 'sk_test_elsewhere',
      publishableKey: 'pk_test_elsewhere',
      webhookSecret: 'whsec_elsewhere',
      mode: 'stripe',
    });
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.created', data: { object: {} } });
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000);
    for (const [checked, secret] of [
      [stripe, 'whsec_elsewhere'],
      [gateway, sandbox.webhookSecret],
    ] as const) {
      expect(checked.parseWebhook(payload, stripeSignature(payload, secret, at(-240))).id).toBe('evt_1');
      expect(checked.parseWebhook(payload, stripeSignature(payload, secret, at(240))).id).toBe('evt_1');
      expect(() => checked.parseWebhook(payload, stripeSignature(payload, secret, at(-310)))).toThrow(
        CardSignatureError,
      );
      expect(() => checked.parseWebhook(payload, stripeSignature(payload, secret, at(3600)))).toThrow(
        CardSignatureError,
      );
      // Stripe's SDK keeps the last `t=`: a second one, signed ahead, must not slip past the check
      // by putting a current timestamp first (nor by a space the SDK does not trim).
      const ahead = stripeSignature(payload, secret, at(3600));
      const now = `t=${Math.floor(Date.now() / 1000)}`;
      expect(() => checked.parseWebhook(payload, `${now},${ahead}`)).toThrow(CardSignatureError);
      expect(() => checked.parseWebhook(payload, ` ${now},${ahead}`)).toThrow(CardSignatureError);
      // Two timestamps are refused even when both are current: the header is not Stripe's.
      const current = stripeSignature(payload, secret, at(0));
      expect(() => checked.parseWebhook(payload, `${now},${current}`)).toThrow(CardSignatureError);
    }
  });

  it('retries a failed delivery with backoff, and a restarted sandbox delivers what is pending', async () => {
    const statuses: number[] = [];
    const failing = new CardSandbox({
      db: dbh.db,
      log,
      webhookSecret: sandbox.webhookSecret,
      port: 0,
      publicUrl: PUBLIC_URL,
      deliver: async () => {
        statuses.push(503);
        return 503;
      },
    });
    await drain();
    const customer = await newCustomer();
    const setup = await gateway.createSetupIntent({ customerId: customer.id, metadata: {} }, key());
    await confirmInBrowser(setup, '4242424242424242');
    expect(await failing.deliverDue()).toBe(0);
    expect(statuses).toEqual([503]);
    const [pending] = await dbh.db.select().from(cardSandboxEvents).where(isNull(cardSandboxEvents.deliveredAt));
    expect(pending).toMatchObject({ type: 'setup_intent.succeeded', attempts: 1 });
    // Due again about a second later, not before.
    const delay = pending!.nextAttemptAt.getTime() - Date.now();
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(1000);
    expect(await failing.deliverDue()).toBe(0);
    expect(statuses).toHaveLength(1);
    await failing.stop();

    // A new instance on the same database (a restart) delivers it once it is due.
    const received: string[] = [];
    const restarted = new CardSandbox({
      db: dbh.db,
      log,
      webhookSecret: sandbox.webhookSecret,
      port: 0,
      publicUrl: PUBLIC_URL,
      pollMs: 50,
      deliver: async (payload, signature) => {
        received.push(gateway.parseWebhook(payload, signature).type);
        return 204;
      },
    });
    await restarted.start();
    try {
      await expect.poll(() => received, { timeout: 5000 }).toEqual(['setup_intent.succeeded']);
    } finally {
      await restarted.stop();
    }
    const [delivered] = await dbh.db.select().from(cardSandboxEvents).where(eq(cardSandboxEvents.id, pending!.id));
    expect(delivered).toMatchObject({ attempts: 2 });
    expect(delivered!.deliveredAt).not.toBeNull();
  });
});
