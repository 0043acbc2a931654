import { randomUUID } from 'node:crypto';
import { createTestDatabase } from '@connect/db/testing';
import { describe, expect, it } from 'vitest';
import { createTestApp, testConfig } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';

/*
 * How the app carries the card adapter (issue 16): the sandbox where Stripe is not configured —
 * its browser routes mounted, its webhooks delivered to the app's own webhook route, its listener
 * closed with the app — and Stripe's hosts in the Content-Security-Policy only with Stripe.
 */

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_configured',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_configured',
  STRIPE_WEBHOOK_SECRET: 'whsec_configured',
};

describe('the card adapter in the app', () => {
  it('runs the sandbox without Stripe: browser routes, signed webhooks to /api/payment/card/webhook, closed with the app', async () => {
    const db = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), db, logger: false });
    const webhooks: { url: string; signature: string | undefined }[] = [];
    app.addHook('onRequest', async (request) => {
      if (request.url.includes('/card/webhook')) {
        webhooks.push({ url: request.url, signature: [request.headers['stripe-signature']].flat()[0] });
      }
    });
    await app.ready();
    let isClosed = false;
    try {
      const cards = app.deps.cards!;
      expect(cards.mode).toBe('sandbox');
      const csp = String(
        (await app.inject({ method: 'GET', url: '/api/card-sandbox/v1/payment_intents/pi_x?client_secret=s' })).headers[
          'content-security-policy'
        ],
      );
      expect(csp).not.toContain('stripe.com');

      const customer = await cards.createCustomer({ accountId: randomUUID(), email: null, name: null }, randomUUID());
      const setup = await cards.createSetupIntent({ customerId: customer.id, metadata: {} }, randomUUID());
      const confirmed = await app.inject({
        method: 'POST',
        url: `/api/card-sandbox/v1/setup_intents/${setup.id}/confirm`,
        payload: {
          clientSecret: setup.clientSecret,
          card: { number: '4242424242424242', expMonth: 1, expYear: new Date().getUTCFullYear() + 1, cvc: '123' },
          returnUrl: 'http://localhost/return',
        },
      });
      expect(confirmed.json()).toMatchObject({ status: 'succeeded' });
      // The loop started with the app delivers setup_intent.succeeded to the payment service's route.
      await expect.poll(() => webhooks.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(webhooks[0]!.url).toBe('/api/payment/card/webhook');
      expect(webhooks[0]!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

      await app.close();
      isClosed = true;
      // The sandbox's listener closed with the app: the SDK can no longer reach it.
      await expect(cards.retrievePaymentIntent('pi_gone')).rejects.toMatchObject({ type: 'StripeConnectionError' });
    } finally {
      if (!isClosed) await app.close();
      await db.close();
    }
  });

  it('uses Stripe when its keys are set, with Stripe’s hosts in the CSP and no sandbox routes', async () => {
    const t = await createTestApp(STRIPE_ENV);
    try {
      expect(t.app.deps.cards).toMatchObject({ mode: 'stripe', publishableKey: 'pk_test_configured' });
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/card-sandbox/v1/payment_intents/pi_x?client_secret=s',
      });
      expect(res.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
      expect(csp).toMatch(/frame-src [^;]*https:\/\/hooks\.stripe\.com/);
      expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
    } finally {
      await t.close();
    }
  });

  it('has no card payments where the sandbox is off, or when a test replaces the adapter with none', async () => {
    for (const t of [await createTestApp({ CARD_SANDBOX: 'off' }), await createTestApp({}, { cards: null })]) {
      try {
        expect(t.app.deps.cards).toBeNull();
      } finally {
        await t.close();
      }
    }
  });
});
