import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceLines, invoices, mailOutbox, outboxEvents, payments } from '@connect/db';
import { ZOrder, ZOrdersResponse, type TOrder } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import type { DomainEvent, EventType } from '../../events/catalogue.ts';
import type { EventBus, EventEffect } from '../../events/port.ts';
import { toEvent } from '../../events/repository.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { formatDate } from './order-format.ts';
import { orderPaidMail, orderPlacedMail, subscribeOrderMails } from './order-mails.ts';
import { addMonths } from './transitions.ts';
import {
  administrator,
  allowancesOf,
  bundleOf,
  customer,
  placePlan,
  planByCode,
  planOrder,
  planState,
  post,
  receipt,
  terms,
  type Session,
} from './test-support.ts';

describe('bank transfer: staff receipts, credits top-up, the order emails', () => {
  let t: TestContext;
  let staff: Awaited<ReturnType<typeof administrator>>;
  beforeAll(async () => {
    t = await createTestApp();
    staff = await administrator(t);
  });
  afterAll(() => t?.close());

  const parse = (res: { json: () => unknown }) => ZOrder.parse(res.json());
  const paymentsOf = (orderId: string) => t.db.db.select().from(payments).where(eq(payments.orderId, orderId));
  const invoiceOf = async (orderId: string) =>
    (await t.db.db.select().from(invoices).where(eq(invoices.orderId, orderId)))[0]!;
  const eventsOf = (accountId: string, type: EventType) =>
    t.db.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.accountId, accountId), eq(outboxEvents.type, type)));
  const purchases = async (accountId: string) =>
    (await new LedgerRepository(t.db.db).entries(accountId, 'CREDIT'))
      .filter((entry) => entry.kind === 'purchase')
      .map((entry) => ({ amount: Number(entry.amount), reference: entry.reference }));

  /** A customer with an annual plan paid by bank transfer (receipt dated `receivedAt`). */
  async function annualCustomer(receivedAt = new Date()): Promise<{ user: Session; order: TOrder }> {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const placed = await placePlan(t, user, planOrder(annual.id));
    const res = await receipt(t, staff, placed.id, {
      amountGbpMinor: placed.totalGbpMinor,
      receivedAt: receivedAt.toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return { user, order: parse(res) };
  }

  it('is for administrators only, with valid bodies', async () => {
    const user = await customer(t);
    const order = await placePlan(t, user, planOrder((await planByCode(t, 'annual-standard')).id));
    const sales = await signInAs(t, { role: 'QUANT_SALES' });
    for (const caller of [user, sales]) {
      const res = await receipt(t, caller, order.id, { amountGbpMinor: order.totalGbpMinor });
      expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/account-plan/management/orders',
        headers: caller.headers,
      });
      expect(list.statusCode).toBe(403);
    }
    expect((await receipt(t, { headers: {} }, order.id, { amountGbpMinor: 1 })).statusCode).toBe(401);
    const invalid: [object, string][] = [
      [{ receiptId: '', amountGbpMinor: 100, receivedAt: new Date().toISOString() }, 'receiptId'],
      [{ receiptId: 'B-1', amountGbpMinor: 0, receivedAt: new Date().toISOString() }, 'amountGbpMinor'],
      [{ receiptId: 'B-1', amountGbpMinor: 10.5, receivedAt: new Date().toISOString() }, 'amountGbpMinor'],
      [{ receiptId: 'B-1', amountGbpMinor: 100, receivedAt: 'yesterday' }, 'receivedAt'],
      [
        { receiptId: 'B-1', amountGbpMinor: 100, receivedAt: new Date(Date.now() + 86_400_000).toISOString() },
        'receivedAt',
      ],
    ];
    for (const [body, field] of invalid) {
      const res = await post(t, `/management/orders/${order.id}/receipts`, staff, body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().invalidParams[0].name).toBe(field);
    }
    const unknown = await receipt(t, staff, randomUUID(), { amountGbpMinor: 100 });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'ORDER_NOT_FOUND']);
    expect(await paymentsOf(order.id)).toEqual([]);
  });

  it('keeps a partly paid order waiting, then pays it: plan ACTIVE with its allowances, credits bought, invoice PAID', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const bundle = await bundleOf(t, annual.id, 1_000);
    const order = await placePlan(t, user, planOrder(annual.id, { creditBundleId: bundle.id }));

    const part = await receipt(t, staff, order.id, { receiptId: 'BANK-PART-1', amountGbpMinor: 500_000 });
    expect(part.statusCode).toBe(200);
    expect(parse(part)).toMatchObject({
      status: 'AWAITING_PAYMENT',
      paidGbpMinor: 500_000,
      bankTransfer: { amountGbpMinor: order.totalGbpMinor - 500_000 },
    });
    expect((await planState(t, user.accountId)).status).toBe('PENDING');
    expect(await purchases(user.accountId)).toEqual([]);
    // The customer withdraws nothing once money arrived.
    const cancel = await post(t, `/order/${order.id}/cancel`, user);
    expect([cancel.statusCode, cancel.json().code]).toEqual([409, 'ORDER_PARTLY_PAID']);

    const receivedAt = new Date(Date.now() - 3 * 86_400_000);
    const rest = await receipt(t, staff, order.id, {
      receiptId: 'BANK-PART-2',
      amountGbpMinor: order.totalGbpMinor - 500_000,
      receivedAt: receivedAt.toISOString(),
    });
    expect(rest.statusCode).toBe(200);
    const paid = parse(rest);
    const periodEnd = addMonths(receivedAt, 12);
    expect(paid).toMatchObject({
      status: 'PAID',
      paidGbpMinor: order.totalGbpMinor,
      paidAt: receivedAt.toISOString(),
      periodStart: receivedAt.toISOString(),
      periodEnd: periodEnd.toISOString(),
      bankTransfer: null,
    });
    expect(await invoiceOf(order.id)).toMatchObject({
      status: 'PAID',
      amountPaidMinor: order.totalGbpMinor,
      paidAt: receivedAt,
      periodStart: receivedAt,
      periodEnd,
      // Numbered when the order was placed (its invoice is the payment request), not at payment.
      number: expect.stringMatching(/^INV-\d{6}$/),
    });
    const [feeLine] = await t.db.db
      .select()
      .from(invoiceLines)
      .where(and(eq(invoiceLines.invoiceId, order.invoiceId), eq(invoiceLines.position, 1)));
    expect(feeLine!.description).toBe(`Annual Subscription — Standard, 12 months from ${formatDate(receivedAt)}`);

    expect(await planState(t, user.accountId)).toMatchObject({
      plan: { id: annual.id },
      status: 'ACTIVE',
      statusReason: null,
      pendingOrderId: null,
      startedAt: receivedAt,
      periodEnd,
    });
    expect(await allowancesOf(t, user.accountId)).toEqual({
      accountId: user.accountId,
      status: 'ACTIVE',
      inService: true,
      applications: annual.applications,
      tokens: annual.tokens,
      bridges: annual.bridges,
      blockchains: annual.blockchains,
      mainnets: annual.mainnets,
      testnets: annual.testnets,
      rateLimit: annual.rateLimit,
    });
    expect(await purchases(user.accountId)).toEqual([{ amount: 1_000, reference: `order:${order.id}` }]);
    expect((await eventsOf(user.accountId, 'order.paid')).map((e) => e.payload)).toEqual([
      {
        accountId: user.accountId,
        orderId: order.id,
        reference: order.reference,
        kind: 'PLAN',
        totalGbpMinor: order.totalGbpMinor,
      },
    ]);

    // The same receipt again changes nothing; a new one for a paid order is refused.
    const again = await receipt(t, staff, order.id, { receiptId: 'BANK-PART-2', amountGbpMinor: 1 });
    expect(again.statusCode).toBe(200);
    expect(parse(again)).toEqual(paid);
    const extra = await receipt(t, staff, order.id, { receiptId: 'BANK-EXTRA', amountGbpMinor: 1 });
    expect([extra.statusCode, extra.json().code]).toEqual([409, 'ORDER_NOT_PAYABLE']);
    expect(await paymentsOf(order.id)).toHaveLength(2);
    expect(await purchases(user.accountId)).toHaveLength(1);
    expect(await eventsOf(user.accountId, 'order.paid')).toHaveLength(1);
    // The receipt's id belongs to this order: recorded for another, it is refused.
    const other = await placePlan(t, await customer(t), planOrder(annual.id));
    const reused = await receipt(t, staff, other.id, { receiptId: 'BANK-PART-2', amountGbpMinor: 1 });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().invalidParams[0].name).toBe('receiptId');
  });

  it('records one receipt sent several times at once only once', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const bundle = await bundleOf(t, annual.id, 5_000);
    const order = await placePlan(t, user, planOrder(annual.id, { creditBundleId: bundle.id }));
    const body = { receiptId: `BANK-${randomUUID()}`, amountGbpMinor: order.totalGbpMinor };
    const answers = await Promise.all(Array.from({ length: 4 }, () => receipt(t, staff, order.id, body)));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect(await purchases(user.accountId)).toEqual([{ amount: 5_000, reference: `order:${order.id}` }]);
    expect(await eventsOf(user.accountId, 'order.paid')).toHaveLength(1);
  });

  it('refuses a receipt for a cancelled order', async () => {
    const user = await customer(t);
    const order = await placePlan(t, user, planOrder((await planByCode(t, 'annual-standard')).id));
    expect((await post(t, `/order/${order.id}/cancel`, user)).statusCode).toBe(200);
    const res = await receipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor });
    expect([res.statusCode, res.json().code]).toEqual([409, 'ORDER_NOT_PAYABLE']);
    expect((await invoiceOf(order.id)).status).toBe('VOID');
  });

  it('lists orders for staff by status and reference', async () => {
    const user = await customer(t);
    const waiting = await placePlan(t, user, planOrder((await planByCode(t, 'annual-advance')).id));
    const { order: paid } = await annualCustomer();
    const list = async (query: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/account-plan/management/orders${query}`,
        headers: staff.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return ZOrdersResponse.parse(res.json()).orders.map((order) => order.id);
    };
    const awaiting = await list('?status=AWAITING_PAYMENT');
    expect(awaiting).toContain(waiting.id);
    expect(awaiting).not.toContain(paid.id);
    expect(await list('?status=PAID')).toContain(paid.id);
    expect(await list(`?reference=${waiting.reference.toLowerCase()}`)).toEqual([waiting.id]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/account-plan/management/orders?status=LOST',
      headers: staff.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a lower plan or the same one once active', async () => {
    const { user } = await annualCustomer();
    const payg = await planByCode(t, 'payg-advance');
    const lower = await post(t, '/order/plan', user, planOrder(payg.id, { paymentMethod: 'FIAT' }));
    expect([lower.statusCode, lower.json().code]).toEqual([409, 'PLAN_NOT_AN_UPGRADE']);
    const same = await post(t, '/order/plan', user, planOrder((await planByCode(t, 'annual-standard')).id));
    expect([same.statusCode, same.json().code]).toEqual([409, 'PLAN_ALREADY_CURRENT']);
    // An upgrade keeps the current allowances in service while it waits.
    const advance = await planByCode(t, 'annual-advance');
    await placePlan(t, user, planOrder(advance.id));
    expect(await allowancesOf(t, user.accountId)).toMatchObject({ status: 'PENDING', inService: true });
  });

  describe('credits top-up: POST /order/credits', () => {
    const creditsOrder = (creditBundleId: string, extra: object = {}) => ({
      idempotencyKey: randomUUID(),
      creditBundleId,
      paymentMethod: 'BANK_TRANSFER',
      terms,
      ...extra,
    });

    it('is refused to plans that sell no bundles or are not in service', async () => {
      const annual = await planByCode(t, 'annual-standard');
      const bundle = await bundleOf(t, annual.id, 1_000);
      const trial = await customer(t);
      const res = await post(t, '/order/credits', trial, creditsOrder(bundle.id));
      expect([res.statusCode, res.json().code]).toEqual([409, 'CREDITS_NOT_SOLD']);
      const payg = await customer(t);
      await placePlan(t, payg, planOrder((await planByCode(t, 'payg-standard')).id, { paymentMethod: 'FIAT' }));
      const paygRes = await post(t, '/order/credits', payg, creditsOrder(bundle.id));
      expect(paygRes.json().code).toBe('CREDITS_NOT_SOLD');
      // An annual plan that staff disabled is not in service.
      const { user } = await annualCustomer();
      await new PlanLifecycle(t.db.db, t.app.events, { paygCreditLimit: 0 }).apply(user.accountId, {
        type: 'DISABLED_BY_STAFF',
      });
      const disabled = await post(t, '/order/credits', user, creditsOrder(bundle.id));
      expect(disabled.json().code).toBe('CREDITS_NOT_SOLD');
      const invalid = await post(t, '/order/credits', user, { ...creditsOrder(bundle.id), terms: {} });
      expect(invalid.statusCode).toBe(400);
    });

    it('sells a bundle of the current plan; its receipt adds the credits, the plan unchanged', async () => {
      const { user } = await annualCustomer();
      const annual = await planByCode(t, 'annual-standard');
      const advanceBundle = await bundleOf(t, (await planByCode(t, 'annual-advance')).id, 1_000);
      const wrong = await post(t, '/order/credits', user, creditsOrder(advanceBundle.id));
      expect([wrong.statusCode, wrong.json().code]).toEqual([404, 'CREDIT_BUNDLE_NOT_FOUND']);
      const qnt = await post(t, '/order/credits', user, creditsOrder(advanceBundle.id, { paymentMethod: 'QNT' }));
      expect(qnt.json().code).toBe('CREDIT_BUNDLE_NOT_FOUND');

      const bundle = await bundleOf(t, annual.id, 10_000);
      const body = creditsOrder(bundle.id);
      const res = await post(t, '/order/credits', user, body);
      expect(res.statusCode, res.body).toBe(200);
      const order = parse(res);
      expect(order).toMatchObject({
        kind: 'CREDITS',
        status: 'AWAITING_PAYMENT',
        ratePlan: null,
        bundle: { id: bundle.id, credits: 10_000, priceUsdCents: 1_000_000 },
        feeGbpMinor: 0,
        totalGbpMinor: 787_402,
        periodStart: null,
      });
      expect(parse(await post(t, '/order/credits', user, body))).toEqual(order);
      const qntNow = await post(t, '/order/credits', user, creditsOrder(bundle.id, { paymentMethod: 'QNT' }));
      expect(qntNow.json().code).toBe('PAYMENT_METHOD_NOT_ACCEPTED');
      const before = await planState(t, user.accountId);
      expect(before.pendingOrderId).toBeNull();

      const paid = await receipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor });
      expect(parse(paid).status).toBe('PAID');
      expect(await purchases(user.accountId)).toEqual([{ amount: 10_000, reference: `order:${order.id}` }]);
      expect(await planState(t, user.accountId)).toEqual(before);
      // Another account cannot see it.
      const stranger = await customer(t);
      expect((await post(t, '/order/track', stranger, { orderId: order.id })).statusCode).toBe(404);
    });
  });

  describe('the order emails', () => {
    /** Order emails' effects, captured from subscribeOrderMails, run against the outbox's events. */
    function capturedMails() {
      const effects = new Map<EventType, EventEffect<EventType>>();
      const bus = {
        subscribeEffect: (_name: string, type: EventType, effect: EventEffect<EventType>) => effects.set(type, effect),
      } as unknown as EventBus;
      subscribeOrderMails(bus, { db: t.db.db, mailer: t.app.deps.mailer, billing: t.app.deps.config.billing });
      return async (accountId: string, type: 'order.placed' | 'order.paid') => {
        for (const row of await eventsOf(accountId, type)) {
          await effects.get(type)!(toEvent(row) as DomainEvent<EventType>);
        }
      };
    }
    const mailsTo = (email: string) => t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

    it('mails the bank details when placed and the confirmation when paid, once each', async () => {
      const deliver = capturedMails();
      const user = await customer(t);
      const annual = await planByCode(t, 'annual-standard');
      const bundle = await bundleOf(t, annual.id, 1_000);
      const order = await placePlan(t, user, planOrder(annual.id, { creditBundleId: bundle.id }));
      await deliver(user.accountId, 'order.placed');
      await deliver(user.accountId, 'order.placed'); // redelivered: nothing more
      const [placed, ...more] = await mailsTo(user.email);
      expect(more).toEqual([]);
      expect(placed!.subject).toBe(`Order ${order.reference}: bank transfer details`);
      expect(placed!.textBody).toContain(`Please send £6,866.14 by bank transfer by ${formatDate(order.dueAt)} to:`);
      expect(placed!.textBody).toContain('Sort code: 00-00-00');
      expect(placed!.textBody).toContain(`Reference: ${order.reference}`);
      expect(placed!.textBody).toContain('Annual Subscription — Standard with 1,000 credits');

      const receivedAt = new Date('2025-03-07T10:00:00Z');
      await receipt(t, staff, order.id, { amountGbpMinor: order.totalGbpMinor, receivedAt: receivedAt.toISOString() });
      await deliver(user.accountId, 'order.paid');
      await deliver(user.accountId, 'order.paid');
      const mails = await mailsTo(user.email);
      expect(mails).toHaveLength(2);
      const confirmation = mails.find((mail) => mail.id !== placed!.id)!;
      expect(confirmation.subject).toBe(`Order ${order.reference}: your plan is active`);
      expect(confirmation.textBody).toBe(
        [
          `We received £6,866.14 for order ${order.reference}.`,
          'Your plan Annual Subscription — Standard is active from 07.03.2025 until 07.03.2026.',
          '1,000 credits were added to your account.',
        ].join('\n'),
      );
    });

    it('writes no instructions for an order with nothing to transfer', () => {
      const order = {
        kind: 'PLAN',
        reference: 'CNX-ABCDEFGH',
        bankTransfer: null,
        ratePlan: { id: randomUUID(), name: 'Pay as you go — Standard' },
        bundle: null,
        totalGbpMinor: 0,
        paidGbpMinor: 0,
        periodStart: '2025-01-31T12:00:00.000Z',
        periodEnd: '2025-02-28T12:00:00.000Z',
      } as unknown as TOrder;
      expect(orderPlacedMail(order)).toBeNull();
      expect(orderPaidMail(order).text).toBe(
        [
          'Thank you for your order CNX-ABCDEFGH.',
          'Your plan Pay as you go — Standard is active from 31.01.2025 until 28.02.2025.',
          'The credits you use are billed at the end of each month.',
        ].join('\n'),
      );
    });
  });
});
