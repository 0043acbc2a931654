import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';
import { type DbHandle } from '@connect/db';
import type { TCardConfirmation, TCardIntent, TOrder, TPlansResponse } from '@connect/shared';
import { faultTestServer, sleep, type Session } from './server-process.ts';

/**
 * Fault test of card payments (issue 16; docs/decisions/payments.md "Card payments"): the real server
 * (`node --import tsx apps/server/src/server.ts`, its card sandbox speaking Stripe on a port of its
 * own) runs in a process group of its own. Customers place annual plan orders by card and confirm
 * their intents in the browser (the sandbox's card form, 4242 4242 4242 4242); the WHOLE group is
 * killed with SIGKILL as soon as the confirmations answer, before the sandbox's signed webhooks
 * (queued in card_sandbox_events) are delivered and settled. One customer of each round came back
 * from the card form first (POST /card/confirm), so its order was settled by the confirmation.
 *
 * A new server on the same DATA_DIR (and database) delivers the webhooks that were left and settles
 * the orders; a second confirmation changes nothing; the group is killed and restarted once more.
 * Then, from the database: each order is PAID with exactly one `payments` row (FIAT, its intent),
 * its invoice PAID, its account's plan ACTIVE, its intent succeeded, one `card.payment_succeeded`
 * event, no refund; every sandbox event delivered and handled once; and no server logged an error.
 */

const CUSTOMERS_PER_ROUND = 5;
/** Rounds until one leaves some webhooks undelivered at the kill (the first almost always does). */
const MAX_ROUNDS = 3;
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 3, cvc: '123' };
const PLAN_CODE = 'annual-standard';

type Customer = Session & {
  orderId: string;
  intent: TCardIntent;
  total: number;
  /** Whether POST /card/confirm was called before the kill. */
  confirmedFirst: boolean;
};

type SandboxEvent = { id: string; intentId: string; delivered: boolean; nextAttemptAt: Date; attempts: number };

describe('kill -9 of the server’s process group between card confirmations and their webhooks', () => {
  const fault = faultTestServer('card-crash');
  const { base } = fault;
  let cardSandboxPort = 0;
  let planId = '';

  async function startServer() {
    await fault.start({
      env: {
        // No local chains: card payments need none, and the server starts faster.
        DEVCHAINS: '0',
        CARD_SANDBOX: 'on',
        CARD_SANDBOX_PORT: String(cardSandboxPort),
        // Stripe is never this test's provider.
        STRIPE_SECRET_KEY: '',
        STRIPE_PUBLISHABLE_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
      },
    });
  }

  const { json, signIn, signUp } = fault.client;
  const ok = <T>(res: { status: number; body: T; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  const { withDatabase } = fault;

  /** The sandbox's payment_intent.succeeded events, by the intent they report. */
  async function succeededEvents(dbh: DbHandle): Promise<SandboxEvent[]> {
    const rows = (
      await dbh.query(
        `select id, payload, delivered_at, next_attempt_at, attempts from card_sandbox_events
         where type = 'payment_intent.succeeded'`,
      )
    ).rows;
    return rows.map((row) => ({
      id: String(row.id),
      intentId: (JSON.parse(String(row.payload)) as { data: { object: { id: string } } }).data.object.id,
      delivered: row.delivered_at !== null,
      nextAttemptAt: new Date(row.next_attempt_at as string | Date),
      attempts: Number(row.attempts),
    }));
  }

  /** A confirmed customer with an annual plan order to pay by card, and the order's PaymentIntent. */
  async function newCustomer(): Promise<Customer> {
    const session = await signUp('card-crash');
    if (!planId) {
      const { plans } = ok(await json<TPlansResponse>('GET', '/api/account-plan/plans', undefined, session.headers));
      planId = plans.find((plan) => plan.code === PLAN_CODE)!.id;
    }
    const order = ok(
      await json<TOrder>(
        'POST',
        '/api/account-plan/order/plan',
        {
          idempotencyKey: randomUUID(),
          ratePlanId: planId,
          paymentMethod: 'FIAT',
          terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
        },
        session.headers,
      ),
    );
    expect(order).toMatchObject({ status: 'AWAITING_PAYMENT', paymentMethod: 'FIAT' });
    expect(order.totalGbpMinor).toBeGreaterThan(0);
    const intent = ok(
      await json<TCardIntent>('POST', '/api/payment/card/order', { orderId: order.id }, session.headers),
    );
    expect(intent).toMatchObject({ kind: 'PAYMENT', orderId: order.id, amountGbpMinor: order.totalGbpMinor });
    return { ...session, orderId: order.id, intent, total: order.totalGbpMinor, confirmedFirst: false };
  }

  /** The browser's side: the sandbox's card form confirms the intent with its client secret. */
  async function confirmInBrowser(customer: Customer) {
    const res = await json<{ status: string }>(
      'POST',
      `/api/card-sandbox/v1/payment_intents/${customer.intent.intentId}/confirm`,
      { clientSecret: customer.intent.clientSecret, card: CARD, returnUrl: `${base()}/account-plan/upgrade` },
    );
    expect(ok(res).status, res.text).toBe('succeeded');
  }

  /** Back from the card form: POST /card/confirm (which waits briefly for the settlement). */
  const confirmBack = async (customer: Customer) =>
    ok(
      await json<TCardConfirmation>(
        'POST',
        '/api/payment/card/confirm',
        { paymentIntent: customer.intent.intentId },
        customer.headers,
      ),
    );

  const track = async (customer: Customer) =>
    ok(await json<TOrder>('POST', '/api/account-plan/order/track', { orderId: customer.orderId }, customer.headers));

  it('pays each order exactly once after the restarts, whether the webhook or the confirmation came first', async () => {
    const started = Date.now();
    [cardSandboxPort = 0] = await fault.prepare(1);
    await startServer();

    const customers: Customer[] = [];
    let pendingAtKill: SandboxEvent[] = [];
    let rounds = 0;
    while (!pendingAtKill.length) {
      rounds++;
      if (rounds > MAX_ROUNDS) {
        throw new Error(`in ${MAX_ROUNDS} rounds every webhook was delivered before the kill: nothing was tested`);
      }
      const batch: Customer[] = [];
      for (let i = 0; i < CUSTOMERS_PER_ROUND; i++) {
        batch.push(await newCustomer());
      }
      const [first, ...rest] = batch;
      // One came back from the card form before the kill: the confirmation settles its order.
      await confirmInBrowser(first!);
      expect(await confirmBack(first!)).toMatchObject({ status: 'succeeded', orderStatus: 'PAID' });
      first!.confirmedFirst = true;
      // The others confirm all at once, and the group dies as soon as they have answered.
      await Promise.all(rest.map((customer) => confirmInBrowser(customer)));
      await fault.server.killGroup();
      customers.push(...batch);

      const atKill = await withDatabase(
        async (dbh) => ({
          events: await succeededEvents(dbh),
          seen: (
            await dbh.query(`select intent_id from card_intents where status = 'succeeded' and intent_id = any($1)`, [
              rest.map((c) => c.intent.intentId),
            ])
          ).rows.length,
        }),
        { copy: true },
      );
      // What the sandbox answered is kept: every confirmed intent has its event.
      for (const customer of batch) {
        expect(
          atKill.events.filter((e) => e.intentId === customer.intent.intentId),
          customer.intent.intentId,
        ).toHaveLength(1);
      }
      const ids = new Set(rest.map((c) => c.intent.intentId));
      pendingAtKill = atKill.events.filter((e) => ids.has(e.intentId) && !e.delivered);
      console.log(
        `card-crash: round ${rounds}: at the kill ${pendingAtKill.length} of ${rest.length} webhooks were undelivered ` +
          `(${atKill.events.filter((e) => ids.has(e.intentId) && !e.delivered && e.nextAttemptAt.getTime() > Date.now()).length} ` +
          `leased by a delivery in flight or waiting for a retry); the platform had seen ${atKill.seen} of those ${rest.length} intents succeed; the webhook of ` +
          `the one confirmed first was ${atKill.events.find((e) => e.intentId === first!.intent.intentId)!.delivered ? '' : 'not '}delivered`,
      );
      await startServer();
    }

    // The new server delivers what was left; every order ends PAID.
    const restartedAt = Date.now();
    for (const customer of customers) customer.headers = await signIn(customer.email, customer.password);
    const paidBy = Date.now() + 120_000;
    for (;;) {
      const orders = await Promise.all(customers.map(track));
      if (orders.every((order) => order.status === 'PAID')) break;
      if (Date.now() > paidBy) {
        throw new Error(
          `orders still unpaid two minutes after the restart: ${orders
            .filter((order) => order.status !== 'PAID')
            .map((order) => order.id)
            .join(', ')}\n${fault.server.output.join('')}`,
        );
      }
      await sleep(500);
    }
    const settledS = (Date.now() - restartedAt) / 1000;

    // Back from the card form again: nothing changes.
    for (const customer of customers) {
      expect(await confirmBack(customer)).toMatchObject({ status: 'succeeded', orderStatus: 'PAID', failure: null });
    }

    // Once more: killed, and restarted until the sandbox has nothing left to deliver.
    await fault.server.killGroup();
    const ours = new Set(customers.map((c) => c.intent.intentId));
    let pending = (await withDatabase(succeededEvents, { copy: true })).filter(
      (e) => ours.has(e.intentId) && !e.delivered,
    );
    const pendingAtSecondKill = pending.length;
    for (let restarts = 0; ; restarts++) {
      await startServer();
      for (const customer of customers) customer.headers = await signIn(customer.email, customer.password);
      // A delivery claimed by a killed server waits for its lease (a minute) to run out (a real wait:
      // the lease's time is the subject).
      const due = Math.max(Date.now(), ...pending.map((e) => e.nextAttemptAt.getTime()));
      await sleep(due - Date.now() + 3_000);
      for (const order of await Promise.all(customers.map(track))) expect(order.status).toBe('PAID');
      await fault.server.stop();
      pending = (await withDatabase(succeededEvents, { copy: false })).filter(
        (e) => ours.has(e.intentId) && !e.delivered,
      );
      if (!pending.length) break;
      if (restarts >= 2) throw new Error(`webhooks never delivered: ${pending.map((e) => e.id).join(', ')}`);
    }

    await withDatabase(
      async (dbh) => {
        const events = await succeededEvents(dbh);
        for (const customer of customers) {
          const intentId = customer.intent.intentId;
          const label = `${customer.email} (${intentId}${customer.confirmedFirst ? ', confirmed before the kill' : ''})`;
          const [order] = (
            await dbh.query(`select account_id, status, paid_at from orders where id = $1`, [customer.orderId])
          ).rows;
          expect(order, label).toMatchObject({ status: 'PAID' });
          expect(order!.paid_at, label).not.toBeNull();
          const paid = (
            await dbh.query(
              `select order_id, method, external_id, amount_gbp_minor from payments
               where order_id = $1 or external_id = $2`,
              [customer.orderId, intentId],
            )
          ).rows;
          expect(paid, label).toEqual([
            { order_id: customer.orderId, method: 'FIAT', external_id: intentId, amount_gbp_minor: customer.total },
          ]);
          const invoices = (
            await dbh.query(`select status, total_minor, amount_paid_minor from invoices where order_id = $1`, [
              customer.orderId,
            ])
          ).rows;
          expect(invoices, label).toHaveLength(1);
          expect(invoices[0]!.status, label).toBe('PAID');
          expect(invoices[0]!.amount_paid_minor, label).toBe(invoices[0]!.total_minor);
          const [plan] = (
            await dbh.query(
              `select p.status, p.pending_order_id, r.code from account_plans p join rate_plans r on r.id = p.rate_plan_id
               where p.account_id = $1`,
              [order!.account_id],
            )
          ).rows;
          expect(plan, label).toEqual({ status: 'ACTIVE', pending_order_id: null, code: PLAN_CODE });
          const intents = (
            await dbh.query(`select order_id, status from card_intents where intent_id = $1`, [intentId])
          ).rows;
          expect(intents, label).toEqual([{ order_id: customer.orderId, status: 'succeeded' }]);
          // The settlement was announced once, and delivered.
          const announced = (
            await dbh.query(
              `select dispatched_at from outbox_events
               where type = 'card.payment_succeeded' and payload->>'intentId' = $1`,
              [intentId],
            )
          ).rows;
          expect(announced, label).toHaveLength(1);
          expect(announced[0]!.dispatched_at, label).not.toBeNull();
          expect(
            (await dbh.query(`select id from refunds where order_id = $1`, [customer.orderId])).rows,
            label,
          ).toEqual([]);
          // Its webhook: recorded once by the sandbox, delivered, handled once by the platform.
          const mine = events.filter((e) => e.intentId === intentId);
          expect(
            mine.map((e) => e.delivered),
            label,
          ).toEqual([true]);
          expect(
            (await dbh.query(`select event_id from card_webhook_events where event_id = $1`, [mine[0]!.id])).rows,
            label,
          ).toHaveLength(1);
        }
      },
      { copy: false },
    );

    const errors = fault.output
      .join('')
      .split('\n')
      .filter((line) => /"level":(5|6)\d/.test(line));
    expect(errors, 'errors in the servers’ logs').toEqual([]);

    console.log(
      `card-crash: ${customers.length} orders in ${rounds} round(s); ${pendingAtKill.length} webhooks undelivered at ` +
        `the first kill, ${pendingAtSecondKill} at the second; all PAID ${settledS.toFixed(1)} s after the restart; ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s in all`,
    );
  }, 300_000);
});
