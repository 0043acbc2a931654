import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cardIntents, orders, refunds } from '@connect/db';
import { sandboxWebhookSecret } from '../../adapters/cards/create-gateway.ts';
import { CardKeyInUseError, CardRefusedError } from '../../adapters/cards/port.ts';
import { stripeSignature } from '../../adapters/cards/sandbox/index.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { administrator, customer } from '../account-plan/test-support.ts';
import { CARDS, cardTestKit } from './test-support.ts';

/*
 * Card payments hardened (issue 27; docs/decisions/payments.md "Card webhooks, refunds and intents"): a
 * webhook is a hint to look, whoever signed it; the sandbox signs with the installation's own
 * secret; concurrent staff refunds take one decision at a time; concurrent payment steps share
 * one intent. Against the embedded sandbox, through the real Stripe adapter.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

const {
  pay,
  confirmInBrowser,
  intentFor,
  confirm,
  annualByCard,
  annualPaidByCard,
  saveCardFor,
  refundOrder,
  paymentsOf,
  settle,
} = cardTestKit(() => t);

/** The installation's webhook secret (what the sandbox signs with). */
let installationSecret = '';
beforeAll(async () => {
  installationSecret = await sandboxWebhookSecret(t.db.db, t.app.deps.box);
});
const webhookSecret = () => installationSecret;

/** A webhook event as Stripe sends it, signed with `secret` (the installation's, unless forged). */
function sendWebhook(event: object, secret = webhookSecret(), at = new Date()) {
  const payload = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/payment/card/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, secret, at) },
    payload,
  });
}

/** `payment_intent.succeeded` for the intent, carrying what the sender says it paid. */
const succeededEvent = (intentId: string, amount: number, accountId: string, orderId: string) => ({
  id: `evt_${randomUUID().replaceAll('-', '')}`,
  object: 'event',
  type: 'payment_intent.succeeded',
  created: Math.floor(Date.now() / 1000),
  data: {
    object: {
      id: intentId,
      object: 'payment_intent',
      amount,
      currency: 'gbp',
      status: 'succeeded',
      metadata: { orderId, accountId },
    },
  },
});

describe('webhooks are hints to look (issue 27)', () => {
  it('a success the provider never saw settles nothing, and the real payment that follows pays the order', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    const intent = await intentFor(user, order.id);
    // Signed as the provider signs (the secret leaked, or a replayed body): the outcome is still
    // read from the provider, where the intent waits for a card.
    const forged = await sendWebhook(succeededEvent(intent.intentId, 1, user.accountId, order.id));
    expect(forged.statusCode, forged.body).toBe(200);
    await t.app.events.drain();
    expect(await paymentsOf(order.id)).toHaveLength(0);
    const [row] = await t.db.db.select().from(cardIntents).where(eq(cardIntents.intentId, intent.intentId));
    expect(row!.status).toBe('requires_payment_method');

    // The real payment: settled in full (its webhook, delivered by the sandbox, is enough).
    expect((await confirmInBrowser(intent, CARDS.ok)).status).toBe('succeeded');
    await settle(
      async () => (await t.db.db.select().from(orders).where(eq(orders.id, order.id)))[0]!.status === 'PAID',
    );
    const recorded = await paymentsOf(order.id);
    expect(recorded.map((payment) => payment.amountGbpMinor)).toEqual([order.totalGbpMinor]);
  });

  it('a payment the order can no longer take in full (part paid by transfer meanwhile) is refunded', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualByCard(user);
    const intent = await intentFor(user, order.id);
    const receipt = await t.app.inject({
      method: 'POST',
      url: `/api/account-plan/management/orders/${order.id}/receipts`,
      headers: staff.headers,
      payload: { receiptId: `bank-${randomUUID()}`, amountGbpMinor: 100_00, receivedAt: new Date().toISOString() },
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect((await confirmInBrowser(intent, CARDS.ok)).status).toBe('succeeded');
    await confirm(user, intent);
    await settle(async () => (await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id))).length > 0);
    const [refund] = await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(refund).toMatchObject({ intentId: intent.intentId, amountGbpMinor: order.totalGbpMinor });
    expect((await paymentsOf(order.id)).map((payment) => payment.method)).toEqual(['BANK_TRANSFER']);
  });
});

describe('the webhook secret (issue 27)', () => {
  const otherEvent = () => ({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: 'customer.created',
    data: { object: { id: 'cus_1', object: 'customer' } },
  });

  it('is the installation’s own: the fixed string of the source signs nothing', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    const intent = await intentFor(user, order.id);
    const forged = await sendWebhook(
      succeededEvent(intent.intentId, order.totalGbpMinor, user.accountId, order.id),
      'whsec_connect_sandbox',
    );
    expect([forged.statusCode, forged.json().code]).toEqual([400, 'CARD_WEBHOOK_INVALID']);
    expect(webhookSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{32,}$/);
    expect(webhookSecret()).not.toBe('whsec_connect_sandbox');
  });

  it('refuses a signature dated more than five minutes away, ahead or behind', async () => {
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000);
    expect((await sendWebhook(otherEvent(), webhookSecret(), at(3600))).statusCode).toBe(400);
    expect((await sendWebhook(otherEvent(), webhookSecret(), at(310))).statusCode).toBe(400);
    expect((await sendWebhook(otherEvent(), webhookSecret(), at(-310))).statusCode).toBe(400);
    expect((await sendWebhook(otherEvent(), webhookSecret(), at(240))).statusCode).toBe(200);
    expect((await sendWebhook(otherEvent(), webhookSecret(), at(-240))).statusCode).toBe(200);
    // A second `t=` (Stripe's SDK verifies the last one): a current one first does not pass a
    // signature dated an hour ahead.
    const payload = JSON.stringify(otherEvent());
    const now = `t=${Math.floor(Date.now() / 1000)}`;
    const ahead = stripeSignature(payload, webhookSecret(), at(3600));
    const twice = await t.app.inject({
      method: 'POST',
      url: '/api/payment/card/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': `${now},${ahead}` },
      payload,
    });
    expect([twice.statusCode, twice.json().code]).toEqual([400, 'CARD_WEBHOOK_INVALID']);
  });
});

describe('concurrency (issue 27)', () => {
  it('twenty payment steps of one order at once share one intent', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    // The provider is slow to answer all but the first request for the account's customer: the
    // steps fired together are still deciding when the first one's intent is recorded.
    const gateway = t.app.deps.cards!;
    const createCustomer = gateway.createCustomer.bind(gateway);
    let calls = 0;
    const spy = vi.spyOn(gateway, 'createCustomer').mockImplementation(async (...args) => {
      if (calls++ > 0) await new Promise((resolve) => setTimeout(resolve, 1000)); // a real wait: a slow provider is the subject
      return createCustomer(...args);
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => pay(user, '/card/order', { orderId: order.id })),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      expect(new Set(answers.map((res) => res.json().intentId)).size).toBe(1);
    } finally {
      spy.mockRestore();
    }
    const rows = await t.db.db.select().from(cardIntents).where(eq(cardIntents.orderId, order.id));
    expect(rows).toHaveLength(1);
  });

  it('payment steps the provider answers "key in use" (a request with the key in flight) get the one intent', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    // Stripe answers a request whose idempotency key another request is still using with 409
    // idempotency_key_in_use, and one whose key's request is done with that request's answer:
    // this gateway does the same, the first call of a key taking 300 ms.
    const gateway = t.app.deps.cards!;
    const inFlight = new Set<string>();
    const answered = new Map<string, unknown>();
    const keyInUse = <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      (async (...args: A) => {
        const key = args.at(-1) as string;
        if (answered.has(key)) return answered.get(key) as R;
        if (inFlight.has(key)) {
          throw new CardKeyInUseError('There is currently another in-progress request using this key.');
        }
        inFlight.add(key);
        try {
          await new Promise((resolve) => setTimeout(resolve, 300)); // a real wait: the key stays in use meanwhile
          const answer = await call(...args);
          answered.set(key, answer);
          return answer;
        } finally {
          inFlight.delete(key);
        }
      }) as (...args: A) => Promise<R>;
    const createCustomer = keyInUse(gateway.createCustomer.bind(gateway));
    const createPaymentIntent = keyInUse(gateway.createPaymentIntent.bind(gateway));
    const spies = [
      vi.spyOn(gateway, 'createCustomer').mockImplementation(createCustomer),
      vi.spyOn(gateway, 'createPaymentIntent').mockImplementation(createPaymentIntent),
    ];
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => pay(user, '/card/order', { orderId: order.id })),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      expect(new Set(answers.map((res) => res.json().intentId)).size).toBe(1);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(await t.db.db.select().from(cardIntents).where(eq(cardIntents.orderId, order.id))).toHaveLength(1);
  });

  it('concurrent staff refunds of one order never refund more than was paid', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualPaidByCard(user);
    const part = Math.floor(order.totalGbpMinor * 0.4);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        refundOrder(staff, order.id, {
          idempotencyKey: randomUUID(),
          amountGbpMinor: part,
          reason: 'Goodwill',
        }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(2);
    for (const res of answers.filter((res) => res.statusCode !== 200)) {
      expect(res.json().code, res.body).toBe('REFUND_TOO_LARGE');
    }
    const rows = await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(rows.map((row) => row.amountGbpMinor)).toEqual([part, part]);
  });

  it('a refund the provider refused counts nothing', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualPaidByCard(user);
    const gateway = t.app.deps.cards!;
    const spy = vi.spyOn(gateway, 'refund').mockRejectedValueOnce(new CardRefusedError('Refund refused.'));
    try {
      const refused = await refundOrder(staff, order.id, {
        idempotencyKey: randomUUID(),
        amountGbpMinor: order.totalGbpMinor,
        reason: 'Goodwill',
      });
      expect(refused.json().code, refused.body).toBe('CARD_PROVIDER_ERROR');
    } finally {
      spy.mockRestore();
    }
    const full = await refundOrder(staff, order.id, {
      idempotencyKey: randomUUID(),
      amountGbpMinor: order.totalGbpMinor,
      reason: 'Goodwill',
    });
    expect(full.statusCode, full.body).toBe(200);
    const tooMuch = await refundOrder(staff, order.id, {
      idempotencyKey: randomUUID(),
      amountGbpMinor: 1,
      reason: 'Goodwill',
    });
    expect(tooMuch.json().detail).toBe('At most £0.00 of this order can be refunded.');
  });

  it('a refused refund sent again with the same staff key goes to the provider under a new key', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualPaidByCard(user);
    // Stripe keeps a refusal under its idempotency key for 24 h and answers it again to the same
    // key: this gateway refuses the first request, and every later one under a key it refused.
    const gateway = t.app.deps.cards!;
    const refund = gateway.refund.bind(gateway);
    const keys: string[] = [];
    const refused = new Set<string>();
    const spy = vi.spyOn(gateway, 'refund').mockImplementation(async (input, key) => {
      keys.push(key);
      if (refused.has(key) || refused.size === 0) {
        refused.add(key);
        throw new CardRefusedError('Refund refused.', 'charge_disputed');
      }
      return refund(input, key);
    });
    const body = { idempotencyKey: randomUUID(), amountGbpMinor: order.totalGbpMinor, reason: 'Goodwill' };
    try {
      const first = await refundOrder(staff, order.id, body);
      expect(first.json().code, first.body).toBe('CARD_PROVIDER_ERROR');
      const again = await refundOrder(staff, order.id, body);
      expect(again.statusCode, again.body).toBe(200);
      // Sent once more: answered from the first success, nothing sent.
      expect((await refundOrder(staff, order.id, body)).statusCode).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
    const rows = await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(rows.filter((row) => row.status !== 'failed').map((row) => row.amountGbpMinor)).toEqual([
      order.totalGbpMinor,
    ]);
  });
});

describe('Pay now pressed many times (issue 27)', () => {
  it('ten presses at once charge the saved card once', async () => {
    const user = await customer(t);
    await saveCardFor(user);
    const order = await annualByCard(user);
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(user, `/initiate/${order.id}`, {})));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const charges = await t.db.db.select().from(cardIntents).where(eq(cardIntents.orderId, order.id));
    expect(charges).toHaveLength(1);
    await t.app.events.drain();
    expect((await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id))).length).toBe(0);
    expect((await paymentsOf(order.id)).map((payment) => payment.amountGbpMinor)).toEqual([order.totalGbpMinor]);
  });
});

describe('a refund whose answer was lost (issue 27)', () => {
  it('stays counted until its key is sent again, which finishes it once', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualPaidByCard(user);
    const part = Math.floor(order.totalGbpMinor * 0.4);
    const body = { idempotencyKey: randomUUID(), amountGbpMinor: part, reason: 'Goodwill' };
    // The provider refunds, but its answer never arrives (a timeout, or the server dies meanwhile).
    const gateway = t.app.deps.cards!;
    const refund = gateway.refund.bind(gateway);
    const spy = vi.spyOn(gateway, 'refund').mockImplementationOnce(async (...args) => {
      await refund(...args);
      throw new Error('socket hang up');
    });
    try {
      expect((await refundOrder(staff, order.id, body)).json().code).toBe('CARD_PROVIDER_ERROR');
    } finally {
      spy.mockRestore();
    }
    const beyond = await refundOrder(staff, order.id, {
      ...body,
      idempotencyKey: randomUUID(),
      amountGbpMinor: order.totalGbpMinor - part + 1,
    });
    expect(beyond.json().code, beyond.body).toBe('REFUND_TOO_LARGE');
    // The same key again: the provider answers the refund it made (its key), the credit note follows.
    const again = await refundOrder(staff, order.id, body);
    expect(again.statusCode, again.body).toBe(200);
    const rows = await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(rows).toMatchObject([{ amountGbpMinor: part, status: 'succeeded' }]);
    // Refunded once at the provider: the rest is still refundable there.
    const rest = await refundOrder(staff, order.id, {
      ...body,
      idempotencyKey: randomUUID(),
      amountGbpMinor: order.totalGbpMinor - part,
    });
    expect(rest.statusCode, rest.body).toBe(200);
  });
});
