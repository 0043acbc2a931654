import { randomUUID } from 'node:crypto';
import type { DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../lib/secret-box.ts';
import { problemPlugin } from '../../../plugins/problem.ts';
import type { App } from '../../../types.ts';
import type { CardGateway } from '../port.ts';
import { createCardGateway } from '../create-gateway.ts';
import { type CardSandbox, cardSandboxBrowserRoutes } from './index.ts';

/*
 * The sandbox's browser routes over HTTP (a Fastify instance with the app's validation and
 * problem details): what the SPA's card form and test authentication page send and get back.
 */

let dbh: DbHandle;
let gateway: CardGateway;
let sandbox: CardSandbox;
let app: App;

beforeAll(async () => {
  dbh = await createTestDatabase();
  const created = await createCardGateway(
    { publicUrl: 'http://portal.test', cards: { stripe: undefined, sandbox: { allowed: true, port: 0 } } },
    { dbh, box: new SecretBox('browser-routes-test'), log: pino({ level: 'silent' }), deliver: async () => 200 },
  );
  gateway = created.gateway!;
  sandbox = created.sandbox!;
  const fastify = Fastify().withTypeProvider<ZodTypeProvider>();
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  await fastify.register(problemPlugin);
  await fastify.register(async (scope) => cardSandboxBrowserRoutes(scope as App, sandbox.browser), {
    prefix: '/api/card-sandbox',
  });
  app = fastify as unknown as App;
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await sandbox?.stop();
  await dbh?.close();
});

async function newPayment() {
  const customer = await gateway.createCustomer({ accountId: randomUUID(), email: null, name: null }, randomUUID());
  return gateway.createPaymentIntent(
    { amount: 2500, currency: 'gbp', customerId: customer.id, description: 'Order', metadata: {}, saveCard: true },
    randomUUID(),
  );
}

const card = (number: string) => ({ number, expMonth: 4, expYear: new Date().getUTCFullYear() + 2, cvc: '424' });
const returnUrl = 'http://portal.test/billing/return';

describe('the card sandbox’s browser routes', () => {
  it('show an intent to the holder of its client secret, and 404 to anyone else', async () => {
    const intent = await newPayment();
    const url = `/api/card-sandbox/v1/payment_intents/${intent.id}`;
    const seen = await app.inject({ method: 'GET', url, query: { client_secret: intent.clientSecret } });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({
      id: intent.id,
      object: 'payment_intent',
      status: 'requires_payment_method',
      amount: 2500,
      currency: 'gbp',
      lastError: null,
      redirectUrl: null,
    });

    const otherSecret = (await newPayment()).clientSecret;
    for (const res of [
      await app.inject({ method: 'GET', url, query: { client_secret: otherSecret } }),
      await app.inject({ method: 'GET', url, query: { client_secret: `${intent.clientSecret}x` } }),
      await app.inject({
        method: 'GET',
        url: '/api/card-sandbox/v1/payment_intents/pi_unknown',
        query: { client_secret: 'x' },
      }),
      await app.inject({
        method: 'POST',
        url: `${url}/confirm`,
        payload: { clientSecret: otherSecret, card: card('4242424242424242'), returnUrl },
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // The wrong secret changed nothing.
    expect((await gateway.retrievePaymentIntent(intent.id)).status).toBe('requires_payment_method');
  });

  it('confirm a card, authenticate, and refuse what the intent’s status no longer allows', async () => {
    const intent = await newPayment();
    const url = `/api/card-sandbox/v1/payment_intents/${intent.id}`;
    const declined = await app.inject({
      method: 'POST',
      url: `${url}/confirm`,
      payload: { clientSecret: intent.clientSecret, card: card('4000000000009995'), returnUrl },
    });
    expect(declined.json()).toEqual({
      status: 'requires_payment_method',
      lastError: {
        code: 'card_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      },
      redirectUrl: null,
    });

    const waiting = await app.inject({
      method: 'POST',
      url: `${url}/confirm`,
      payload: { clientSecret: intent.clientSecret, card: card('4000002500003155'), returnUrl },
    });
    expect(waiting.json()).toMatchObject({ status: 'requires_action', lastError: null });
    expect((waiting.json() as { redirectUrl: string }).redirectUrl).toMatch(
      /^http:\/\/portal\.test\/card-sandbox\/authenticate\?intent=pi_/,
    );

    const done = await app.inject({
      method: 'POST',
      url: `${url}/authenticate`,
      payload: { clientSecret: intent.clientSecret, outcome: 'complete' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      status: 'succeeded',
      returnUrl: `${returnUrl}?payment_intent=${intent.id}&payment_intent_client_secret=${intent.clientSecret}&redirect_status=succeeded`,
    });

    for (const res of [
      await app.inject({
        method: 'POST',
        url: `${url}/authenticate`,
        payload: { clientSecret: intent.clientSecret, outcome: 'complete' },
      }),
      await app.inject({
        method: 'POST',
        url: `${url}/confirm`,
        payload: { clientSecret: intent.clientSecret, card: card('4242424242424242'), returnUrl },
      }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });

  it('take a SetupIntent’s card through the same form', async () => {
    const customer = await gateway.createCustomer({ accountId: randomUUID(), email: null, name: null }, randomUUID());
    const setup = await gateway.createSetupIntent({ customerId: customer.id, metadata: {} }, randomUUID());
    const url = `/api/card-sandbox/v1/setup_intents/${setup.id}`;
    const confirmed = await app.inject({
      method: 'POST',
      url: `${url}/confirm`,
      payload: { clientSecret: setup.clientSecret, card: card('4242424242424242'), returnUrl },
    });
    expect(confirmed.json()).toEqual({ status: 'succeeded', lastError: null, redirectUrl: null });
    const seen = await app.inject({ method: 'GET', url, query: { client_secret: setup.clientSecret } });
    expect(seen.json()).toMatchObject({ object: 'setup_intent', status: 'succeeded', amount: null, currency: null });
  });

  it('refuse malformed requests with 400 problem details', async () => {
    const intent = await newPayment();
    for (const res of [
      await app.inject({ method: 'GET', url: `/api/card-sandbox/v1/payment_intents/${intent.id}` }),
      await app.inject({
        method: 'GET',
        url: `/api/card-sandbox/v1/setup_intents/${intent.id}`,
        query: { client_secret: 'x' },
      }),
      await app.inject({
        method: 'POST',
        url: `/api/card-sandbox/v1/payment_intents/${intent.id}/confirm`,
        payload: {
          clientSecret: intent.clientSecret,
          card: card('4242424242424242'),
          returnUrl: 'javascript:alert(1)',
        },
      }),
      await app.inject({
        method: 'POST',
        url: `/api/card-sandbox/v1/payment_intents/${intent.id}/authenticate`,
        payload: { clientSecret: intent.clientSecret, outcome: 'maybe' },
      }),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    }
  });
});
