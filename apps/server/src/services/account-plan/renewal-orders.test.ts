import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceLines, orders, type Database } from '@connect/db';
import { PLAN_TERMS, splitVat, ZOrder } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { formatDate } from './order-format.ts';
import { OrderService } from './orders.ts';
import { addDays, addMonths } from './transitions.ts';
import {
  administrator,
  allowancesOf,
  customer,
  placePlan,
  planByCode,
  planOrder,
  planState,
  post,
  receipt,
} from './test-support.ts';

describe('renewal orders: placed when a period ends, paid by bank transfer', () => {
  let t: TestContext;
  let service: OrderService;
  let lifecycle: PlanLifecycle;
  beforeAll(async () => {
    t = await createTestApp();
    service = new OrderService(
      t.db.db,
      t.app.events,
      t.app.deps.config.billing,
      null,
      null,
      t.app.deps.config.invoices,
    );
    lifecycle = new PlanLifecycle(t.db.db, t.app.events, {
      paygCreditLimit: t.app.deps.config.billing.paygCreditLimit,
    });
  });
  afterAll(() => t?.close());

  /** An annual customer whose paid year ended: paid 400 days ago, so the period ended 35 days ago. */
  async function lapsedAnnualCustomer() {
    const staff = await administrator(t);
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const placed = await placePlan(t, user, planOrder(annual.id));
    const paidAt = new Date(Date.now() - 400 * 86_400_000);
    const res = await receipt(t, staff, placed.id, {
      amountGbpMinor: placed.totalGbpMinor,
      receivedAt: paidAt.toISOString(),
    });
    expect(res.statusCode).toBe(200);
    const state = await planState(t, user.accountId);
    expect(state.periodEnd).toEqual(addMonths(paidAt, 12));
    return { staff, user, annual, periodStart: state.periodEnd!, plan: state.plan };
  }

  /** What the periods job does when a period ends: the renewal order, then PERIOD_ENDED, in one transaction. */
  function endPeriod(accountId: string, input: Parameters<OrderService['placeRenewal']>[1], now = new Date()) {
    return t.db.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const orderId = await service.placeRenewal(tx, input);
      await lifecycle.apply(accountId, { type: 'PERIOD_ENDED', now, renewalOrderId: orderId }, { tx });
      return orderId;
    });
  }

  it('places the renewal once per period, due after the grace days, and its receipt renews the plan', async () => {
    const { staff, user, annual, periodStart, plan } = await lapsedAnnualCustomer();
    const periodEnd = addMonths(periodStart, 12);
    const input = { accountId: user.accountId, plan, periodStart, periodEnd, paymentMethod: 'BANK_TRANSFER' as const };
    const orderId = await endPeriod(user.accountId, input);
    // Placed again (a job run twice): the same order.
    const again = await t.db.db.transaction((tx) => service.placeRenewal(tx as unknown as Database, input));
    expect(again).toBe(orderId);
    expect(await t.db.db.select().from(orders).where(eq(orders.accountId, user.accountId))).toHaveLength(2);

    expect(await planState(t, user.accountId)).toMatchObject({
      status: 'ACTIVE',
      statusReason: 'RENEWAL_DUE',
      pendingOrderId: orderId,
    });
    const tracked = await post(t, '/order/track', user, { orderId });
    expect(tracked.statusCode).toBe(200);
    const order = ZOrder.parse(tracked.json());
    expect(order).toMatchObject({
      kind: 'RENEWAL',
      status: 'AWAITING_PAYMENT',
      ratePlan: { id: annual.id },
      feeGbpMinor: annual.feeGbpMinor,
      totalGbpMinor: annual.feeGbpMinor,
      periodStart: periodStart.toISOString(),
      periodEnd: periodEnd.toISOString(),
      dueAt: addDays(periodStart, PLAN_TERMS.renewalGraceDays).toISOString(),
      bankTransfer: { amountGbpMinor: annual.feeGbpMinor },
    });
    const lines = await t.db.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, order.invoiceId));
    // The fee includes VAT (GB, 20 %): the line is its net amount, its VAT beside it.
    const { netMinor, vatMinor } = splitVat(annual.feeGbpMinor, 2000);
    expect(lines.map((line) => [line.description, line.amountMinor, line.vatMinor])).toEqual([
      [`Annual Subscription — Standard, 12 months from ${formatDate(periodStart)}`, netMinor, vatMinor],
    ]);
    // The customer cannot order the same plan while its renewal waits.
    const same = await post(t, '/order/plan', user, planOrder(annual.id));
    expect(same.json().code).toBe('ORDER_PENDING');

    // Paid late (after the period started): the plan renews for the period ordered, not from the receipt.
    const paid = await receipt(t, staff, orderId, { amountGbpMinor: annual.feeGbpMinor });
    expect(paid.statusCode).toBe(200);
    expect(ZOrder.parse(paid.json())).toMatchObject({
      status: 'PAID',
      periodStart: periodStart.toISOString(),
      periodEnd: periodEnd.toISOString(),
    });
    expect(await planState(t, user.accountId)).toMatchObject({
      plan: { id: annual.id },
      status: 'ACTIVE',
      statusReason: null,
      pendingOrderId: null,
      startedAt: periodStart,
      periodEnd,
    });
    expect(await allowancesOf(t, user.accountId)).toMatchObject({ inService: true, applications: annual.applications });
  });

  it('brings a plan whose renewal failed back to ACTIVE when the renewal is paid', async () => {
    const { staff, user, annual, periodStart, plan } = await lapsedAnnualCustomer();
    const periodEnd = addMonths(periodStart, 12);
    const orderId = await endPeriod(user.accountId, {
      accountId: user.accountId,
      plan,
      periodStart,
      periodEnd,
      paymentMethod: 'BANK_TRANSFER',
    });
    await lifecycle.apply(user.accountId, { type: 'RENEWAL_FAILED', now: new Date(), dueAt: new Date() });
    expect(await allowancesOf(t, user.accountId)).toMatchObject({ status: 'INACTIVE', inService: false });

    const res = await receipt(t, staff, orderId, { amountGbpMinor: annual.feeGbpMinor });
    expect(ZOrder.parse(res.json()).status).toBe('PAID');
    expect(await planState(t, user.accountId)).toMatchObject({ status: 'ACTIVE', statusReason: null, periodEnd });
    expect(await allowancesOf(t, user.accountId)).toMatchObject({ status: 'ACTIVE', inService: true });
  });
});
