import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, cardCharges, cardIntents, creditNotes, orders, refunds } from '@connect/db';
import { CARD_MESSAGES, ZCardConfirmation, ZCardIntent, ZCardStatus, ZCreditNote } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { administrator, customer, planState, post } from '../account-plan/test-support.ts';
import { addDays, addMonths } from '../account-plan/transitions.ts';
import { CARDS, cardTestKit } from './test-support.ts';
import { cardPayments } from './index.ts';

/*
 * Card payments end to end on the server, against the embedded sandbox that speaks Stripe: the
 * real Stripe adapter talks to it over HTTP, its webhooks come back signed through the app.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

const {
  pay,
  confirmInBrowser,
  authenticate,
  intentFor,
  confirm,
  orderByCard,
  annualByCard,
  annualPaidByCard,
  saveCardFor,
  refundOrder,
  paymentsOf,
  mailsTo,
  webhooksOf,
  settle,
} = cardTestKit(() => t);

describe('paying an order by card', () => {
  it('offers card where the sandbox is on', async () => {
    const user = await customer(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/subscription', headers: user.headers });
    expect(res.json().availablePaymentMethods).toContain('FIAT');
    const status = ZCardStatus.parse((await pay(user, 'GET /card/status')).json());
    expect(status).toMatchObject({ available: true, provider: { mode: 'sandbox' }, card: null, failedCharge: null });
  });

  it('pays the annual plan once, whether the confirmation or the webhook comes first', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    expect(order).toMatchObject({ status: 'AWAITING_PAYMENT', paymentMethod: 'FIAT' });
    const intent = await intentFor(user, order.id);
    expect(intent).toMatchObject({ kind: 'PAYMENT', amountGbpMinor: order.totalGbpMinor, orderId: order.id });
    // The payment step reloaded: the same open intent.
    expect((await intentFor(user, order.id)).intentId).toBe(intent.intentId);

    const succeededBefore = await webhooksOf('payment_intent.succeeded');
    expect((await confirmInBrowser(intent, CARDS.ok)).status).toBe('succeeded');
    const confirmation = await confirm(user, intent);
    expect(confirmation).toMatchObject({ status: 'succeeded', orderStatus: 'PAID', failure: null });
    expect(confirmation.card).toMatchObject({ brand: 'visa', last4: '4242' });
    // The webhook arrives too (the sandbox delivers it signed), and the confirmation is repeated,
    // and the intent is read again as the job does: still one payment.
    await settle(async () => (await webhooksOf('payment_intent.succeeded')) > succeededBefore);
    await confirm(user, intent);
    await cardPayments(t.app.deps, t.app.log).reconcile(new Date(), 0);
    await t.app.events.drain();
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect((await planState(t, user.accountId)).status).toBe('ACTIVE');
    expect((await pay(user, '/card/order', { orderId: order.id })).statusCode).toBe(409);
  });

  it('a decline says so and keeps the order payable with another card', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    const intent = await intentFor(user, order.id);
    const declined = await confirmInBrowser(intent, CARDS.declined);
    expect(declined.status).toBe('requires_payment_method');
    expect(declined.lastError?.message).toBe('Your card was declined.');
    const confirmation = await confirm(user, intent);
    expect(confirmation).toMatchObject({ status: 'requires_payment_method', orderStatus: 'AWAITING_PAYMENT' });
    expect(confirmation.failure).toMatchObject({ message: 'Your card was declined.' });
    expect(await paymentsOf(order.id)).toHaveLength(0);

    expect((await confirmInBrowser(intent, CARDS.ok)).status).toBe('succeeded');
    expect(await confirm(user, intent)).toMatchObject({ status: 'succeeded', orderStatus: 'PAID' });
  });

  it('authentication: failed leaves it payable, completed pays it', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    const intent = await intentFor(user, order.id);
    const asked = await confirmInBrowser(intent, CARDS.authenticate);
    expect(asked.status).toBe('requires_action');
    expect(asked.redirectUrl).toContain('/card-sandbox/authenticate?');
    await authenticate(intent, 'fail');
    expect(await confirm(user, intent)).toMatchObject({
      status: 'requires_payment_method',
      orderStatus: 'AWAITING_PAYMENT',
    });

    expect((await confirmInBrowser(intent, CARDS.authenticate)).status).toBe('requires_action');
    await authenticate(intent, 'complete');
    expect(await confirm(user, intent)).toMatchObject({ status: 'succeeded', orderStatus: 'PAID' });
  });

  it('refuses other accounts’ orders and intents, bad bodies and unsigned webhooks', async () => {
    const owner = await customer(t);
    const other = await customer(t);
    const order = await annualByCard(owner);
    const intent = await intentFor(owner, order.id);
    expect((await pay(other, '/card/order', { orderId: order.id })).json().code).toBe('ORDER_NOT_FOUND');
    expect((await pay(other, '/card/confirm', { paymentIntent: intent.intentId })).json().code).toBe(
      'CARD_INTENT_NOT_FOUND',
    );
    expect((await pay(other, `/initiate/${order.id}`, {})).json().code).toBe('ORDER_NOT_FOUND');
    expect((await pay(owner, '/card/confirm', {})).statusCode).toBe(400);
    expect((await pay(owner, '/card/confirm', { paymentIntent: 'pi_1', setupIntent: 'seti_1' })).statusCode).toBe(400);
    expect((await pay(owner, '/card/order', { orderId: 'nope' })).statusCode).toBe(400);
    expect((await pay(null, 'GET /card/status')).statusCode).toBe(401);
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/payment/card/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded' }),
    });
    expect(webhook.statusCode).toBe(400);
    expect(webhook.json().code).toBe('CARD_WEBHOOK_INVALID');
  });
});

describe('what the provider did while the platform did not hear', () => {
  it('a webhook lost and the customer gone: the job reads the intent again and settles the order', async () => {
    // A second app on the first one's sandbox: the sandbox's webhooks go to the first app, so to
    // this one they are lost.
    const deaf = await createTestApp({}, { cards: t.app.deps.cards });
    try {
      const user = await customer(deaf);
      const order = await orderByCard(user, 'annual-standard', deaf);
      const res = await deaf.app.inject({
        method: 'POST',
        url: '/api/payment/card/order',
        headers: user.headers,
        payload: { orderId: order.id },
      });
      const intent = ZCardIntent.parse(res.json());
      expect((await confirmInBrowser(intent, CARDS.ok)).status).toBe('succeeded');
      const reconcile = (at: Date) => cardPayments(deaf.app.deps, deaf.app.log).reconcile(at);
      expect(await reconcile(new Date())).toBe(0); // read a minute after it was last read, not before
      expect(await reconcile(new Date(Date.now() + 120_000))).toBe(1);
      await deaf.app.events.drain();
      const [paid] = await deaf.db.db.select().from(orders).where(eq(orders.id, order.id));
      expect(paid!.status).toBe('PAID');
      expect(await reconcile(new Date(Date.now() + 240_000))).toBe(0); // finished: not read again
    } finally {
      await deaf.close();
    }
  });

  it('paid after the order was withdrawn: refunded in full, the order stays withdrawn', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    const intent = await intentFor(user, order.id);
    expect((await post(t, `/order/${order.id}/cancel`, user)).statusCode).toBe(200);
    expect((await confirmInBrowser(intent, CARDS.ok)).status).toBe('succeeded');
    await confirm(user, intent);
    await settle(async () => (await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id))).length > 0);
    const [refund] = await t.db.db.select().from(refunds).where(eq(refunds.orderId, order.id));
    expect(refund).toMatchObject({
      intentId: intent.intentId,
      amountGbpMinor: order.totalGbpMinor,
      status: 'succeeded',
    });
    expect(await paymentsOf(order.id)).toHaveLength(0);
    const [withdrawn] = await t.db.db.select().from(orders).where(eq(orders.id, order.id));
    expect(withdrawn!.status).toBe('CANCELLED');
  });
});

/** The month's close up to `at` (the dev close: the current period now); answers `at`. */
async function closeMonthNow(at = new Date()): Promise<Date> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dev/billing/close-period',
    payload: { at: at.toISOString() },
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.events.drain();
  return at;
}

describe('pay as you go on the saved card', () => {
  it('keeps the card, bills the month, retries a decline with an email, then pays on the new card', async () => {
    const user = await customer(t);
    const order = await orderByCard(user, 'payg-standard');
    expect(order.status).toBe('PAID');

    // Nothing to pay now: the card is set up for the month-end bills (this one's charges fail).
    const setup = await intentFor(user, order.id);
    expect(setup.kind).toBe('SETUP');
    expect((await confirmInBrowser(setup, CARDS.chargesDeclined)).status).toBe('succeeded');
    expect((await confirm(user, setup)).card).toMatchObject({ last4: '0341' });

    // 150 credits used on credit, then the month is closed (the dev close: the period up to now).
    const { balance } = await new LedgerRepository(t.db.db).balance(user.accountId, 'CREDIT');
    await new LedgerRepository(t.db.db).consume(user.accountId, 'CREDIT', balance + 150n, {
      reason: 'test usage',
      reference: `test:${randomUUID()}`,
    });
    const billedAt = await closeMonthNow();
    // The charge is scheduled when the bill's `order.placed` is delivered (just after the close).
    const monthEnd = new Date(billedAt.getTime() + 60_000);
    const [bill] = await t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'USAGE')));
    expect(bill).toMatchObject({ credits: 150, paymentMethod: 'FIAT', status: 'AWAITING_PAYMENT' });
    expect(await planState(t, user.accountId)).toMatchObject({ status: 'ACTIVE', statusReason: 'RENEWAL_DUE' });
    // The close again: no second bill.
    await closeMonthNow(billedAt);
    expect(
      await t.db.db
        .select()
        .from(orders)
        .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'USAGE'))),
    ).toHaveLength(1);

    // A month's bill is for credits already used: it cannot be withdrawn.
    const withdraw = await post(t, `/order/${bill!.id}/cancel`, user);
    expect([withdraw.statusCode, withdraw.json().code]).toEqual([409, 'ORDER_NOT_CANCELLABLE']);

    const cards = t.app.deps.runtime.cards!;
    expect(await cards.chargeDue(monthEnd)).toEqual({ charged: 0, failed: 1 });
    expect(await cards.chargeDue(monthEnd)).toEqual({ charged: 0, failed: 0 }); // not due again yet
    const [charge] = await t.db.db.select().from(cardCharges).where(eq(cardCharges.orderId, bill!.id));
    expect(charge).toMatchObject({ attempts: 1, nextAttemptAt: addDays(monthEnd, 1) });
    await t.app.events.drain();
    const failedMails = (await mailsTo(user.email)).filter((mail) => mail.subject.startsWith(CARD_MESSAGES.failed));
    expect(failedMails).toHaveLength(1);
    expect(failedMails[0]!.textBody).toContain(CARD_MESSAGES.checkDetails);
    expect(failedMails[0]!.textBody).toContain('Your card was declined.');
    const status = ZCardStatus.parse((await pay(user, 'GET /card/status')).json());
    expect(status.failedCharge).toMatchObject({ orderId: bill!.id, attempts: 1 });

    // The customer replaces the card; the next attempt pays the bill and buys the credits back.
    const replace = ZCardIntent.parse((await pay(user, '/card/setup', {})).json());
    expect((await confirmInBrowser(replace, CARDS.ok)).status).toBe('succeeded');
    expect((await confirm(user, replace)).card).toMatchObject({ last4: '4242' });
    expect(await cards.chargeDue(addDays(monthEnd, 1))).toEqual({ charged: 1, failed: 0 });
    await settle(async () => (await planState(t, user.accountId)).statusReason === null);
    const [paid] = await t.db.db.select().from(orders).where(eq(orders.id, bill!.id));
    expect(paid!.status).toBe('PAID');
    expect((await new LedgerRepository(t.db.db).balance(user.accountId, 'CREDIT')).balance).toBe(0n);
  });

  it('four declines, then the grace days end: INACTIVE; Pay now on a new card makes it ACTIVE', async () => {
    const user = await customer(t);
    const order = await orderByCard(user, 'payg-standard');
    const setup = await intentFor(user, order.id);
    await confirmInBrowser(setup, CARDS.chargesDeclined);
    await confirm(user, setup);
    const ledger = new LedgerRepository(t.db.db);
    const { balance } = await ledger.balance(user.accountId, 'CREDIT');
    await ledger.consume(user.accountId, 'CREDIT', balance + 10n, {
      reason: 'test',
      reference: `test:${randomUUID()}`,
    });
    const monthEnd = new Date((await closeMonthNow()).getTime() + 60_000);
    const cards = t.app.deps.runtime.cards!;
    let now = monthEnd;
    for (const days of [0, 1, 3, 5]) {
      now = addDays(now, days);
      expect(await cards.chargeDue(now)).toEqual({ charged: 0, failed: 1 });
    }
    expect(await cards.chargeDue(addDays(now, 30))).toEqual({ charged: 0, failed: 0 });
    await t.app.events.drain();
    const failed = (await mailsTo(user.email)).filter((mail) => mail.subject.startsWith(CARD_MESSAGES.failed));
    expect(failed).toHaveLength(4);

    await t.app.deps.runtime.accountPlan!.sweep(addDays(monthEnd, 15));
    expect(await planState(t, user.accountId)).toMatchObject({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED' });

    await saveCardFor(user);
    const [bill] = await t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'USAGE')));
    const now2 = await pay(user, `/initiate/${bill!.id}`, {});
    expect(ZCardConfirmation.parse(now2.json())).toMatchObject({ status: 'succeeded', orderStatus: 'PAID' });
    expect(await planState(t, user.accountId)).toMatchObject({ status: 'ACTIVE', statusReason: null });
  });

  it('a bill switched to QNT (its invoice paid in QNT) is not charged on the saved card', async () => {
    const user = await customer(t);
    const order = await orderByCard(user, 'payg-standard');
    const setup = await intentFor(user, order.id);
    await confirmInBrowser(setup, CARDS.ok);
    await confirm(user, setup);
    const ledger = new LedgerRepository(t.db.db);
    const { balance } = await ledger.balance(user.accountId, 'CREDIT');
    await ledger.consume(user.accountId, 'CREDIT', balance + 20n, {
      reason: 'test',
      reference: `test:${randomUUID()}`,
    });
    const monthEnd = new Date((await closeMonthNow()).getTime() + 60_000);
    const [bill] = await t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'USAGE')));
    expect(bill).toMatchObject({ paymentMethod: 'FIAT', status: 'AWAITING_PAYMENT' });
    const [scheduled] = await t.db.db.select().from(cardCharges).where(eq(cardCharges.orderId, bill!.id));
    expect(scheduled?.nextAttemptAt).not.toBeNull();

    // The customer pays its invoice in QNT: POST /user/invoice/:id/pay-qnt switches the order so
    // (this app takes no QNT, so the switch is made here as that route makes it).
    await t.db.db.update(orders).set({ paymentMethod: 'QNT' }).where(eq(orders.id, bill!.id));
    const cards = t.app.deps.runtime.cards!;
    expect(await cards.chargeDue(monthEnd)).toEqual({ charged: 0, failed: 0 });
    expect(await cards.chargeDue(addDays(monthEnd, 30))).toEqual({ charged: 0, failed: 0 });
    const charges = await t.db.db
      .select()
      .from(cardIntents)
      .where(and(eq(cardIntents.orderId, bill!.id), eq(cardIntents.kind, 'PAYMENT')));
    expect(charges).toEqual([]);
    const [after] = await t.db.db.select().from(orders).where(eq(orders.id, bill!.id));
    expect(after).toMatchObject({ paymentMethod: 'QNT', status: 'AWAITING_PAYMENT' });
  });

  it('Pay now without a saved card is refused with what to do', async () => {
    const user = await customer(t);
    const order = await annualByCard(user);
    const res = await pay(user, `/initiate/${order.id}`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CARD_NOT_SAVED');
  });
});

describe('refunds', () => {
  it('staff refund part of a card payment with a credit note; once per key; never beyond what was paid', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualPaidByCard(user);
    const body = { idempotencyKey: randomUUID(), amountGbpMinor: 10_000, reason: 'Goodwill' };
    const first = await refundOrder(staff, order.id, body);
    expect(first.statusCode, first.body).toBe(200);
    const note = ZCreditNote.parse(first.json());
    expect(note).toMatchObject({ orderId: order.id, amountGbpMinor: 10_000, invoiceId: order.invoiceId });
    expect(ZCreditNote.parse((await refundOrder(staff, order.id, body)).json()).id).toBe(note.id);
    expect(await t.db.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, order.invoiceId))).toHaveLength(1);
    const tooMuch = await refundOrder(staff, order.id, {
      ...body,
      idempotencyKey: randomUUID(),
      amountGbpMinor: order.totalGbpMinor,
    });
    expect(tooMuch.json().code).toBe('REFUND_TOO_LARGE');
    // Audited as an outside call: the intent with the reservation, then its outcome with the credit note.
    const audit = await t.db.db.select().from(auditLog).where(eq(auditLog.recordId, order.id));
    expect(audit.map((entry) => [entry.action, entry.outcome])).toEqual([
      ['ORDER_REFUNDED', 'INTENT'],
      ['ORDER_REFUNDED', 'SUCCEEDED'],
    ]);
    expect(audit[1]).toMatchObject({ actorId: staff.sub, intentId: audit[0]!.id });
    expect(audit[1]!.after).toMatchObject({ amountGbpMinor: 10_000, creditNoteId: note.id });
    expect((await pay(user, `/management/orders/${order.id}/refunds`, body)).statusCode).toBe(403);
    await t.app.events.drain();
    expect((await mailsTo(user.email)).some((mail) => mail.subject === `Order ${order.reference}: your refund`)).toBe(
      true,
    );
  });

  it('an order no card payment paid has nothing to refund to a card: ORDER_HAS_NO_CARD_PAYMENT, nothing written', async () => {
    const user = await customer(t);
    const staff = await administrator(t);
    const order = await annualByCard(user);
    const res = await refundOrder(staff, order.id, {
      idempotencyKey: randomUUID(),
      amountGbpMinor: 100,
      reason: 'Test',
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'ORDER_HAS_NO_CARD_PAYMENT']);
    expect(res.json().invalidParams).toEqual([expect.objectContaining({ name: 'orderId' })]);
    expect(await t.db.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, order.invoiceId))).toEqual([]);
  });
});

// The month's bill is for the credits used on credit only: a month within the balance bills nothing.
describe('a month within the balance', () => {
  it('places no bill', async () => {
    const user = await customer(t);
    await orderByCard(user, 'payg-standard');
    const periodEnd = (await planState(t, user.accountId)).periodEnd!;
    await t.app.deps.runtime.accountPlan!.sweep(new Date(periodEnd.getTime() + 1));
    await closeMonthNow();
    expect(
      await t.db.db
        .select()
        .from(orders)
        .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'USAGE'))),
    ).toHaveLength(0);
    expect((await planState(t, user.accountId)).periodEnd).toEqual(addMonths(periodEnd, 1));
  });
});
