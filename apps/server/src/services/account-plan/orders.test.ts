import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditBundles, invoiceLines, invoices, orders, outboxEvents, ratePlans } from '@connect/db';
import { PLAN_TERMS, ZOrder, splitVat } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { usdCentsToPence } from '../../lib/prices.ts';
import {
  allowancesOf,
  bundleOf,
  customer,
  placePlan,
  planByCode,
  planOrder,
  planState,
  post,
  terms,
} from './test-support.ts';
import { newOrderReference } from './orders.ts';
import { formatDate } from './order-format.ts';

describe('account-plan orders: POST /order/plan, /order/track, /order/:id/cancel', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const invoiceOf = async (orderId: string) => {
    const [invoice] = await t.db.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    const lines = await t.db.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoice!.id))
      .orderBy(invoiceLines.position);
    return { invoice: invoice!, lines };
  };
  const ordersOf = (accountId: string) => t.db.db.select().from(orders).where(eq(orders.accountId, accountId));
  const eventsOf = (accountId: string, type: string) =>
    t.db.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.accountId, accountId), eq(outboxEvents.type, type)));

  it('refuses without a token, and invalid bodies with their fields', async () => {
    const annual = await planByCode(t, 'annual-standard');
    expect((await post(t, '/order/plan', null, planOrder(annual.id))).statusCode).toBe(401);
    const user = await customer(t);
    const cases: [object, string][] = [
      [{ ...planOrder(annual.id), terms: { ...terms, privacyPolicy: false } }, 'terms.privacyPolicy'],
      [{ ...planOrder(annual.id), terms: undefined }, 'terms'],
      [{ ...planOrder(annual.id), idempotencyKey: 'not-a-uuid' }, 'idempotencyKey'],
      [{ ...planOrder(annual.id), ratePlanId: 'x' }, 'ratePlanId'],
      [{ ...planOrder(annual.id), paymentMethod: 'CHEQUE' }, 'paymentMethod'],
      [{ ...planOrder(annual.id), upfrontMonths: 0 }, 'upfrontMonths'],
    ];
    for (const [body, field] of cases) {
      const res = await post(t, '/order/plan', user, body);
      expect(res.statusCode, field).toBe(400);
      const names = (res.json() as { invalidParams: { name: string }[] }).invalidParams.map((p) => p.name);
      expect(names).toContain(field);
    }
    expect(await ordersOf(user.accountId)).toEqual([]);
  });

  it('refuses a plan not on sale, a bundle of another plan and a method not taken', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const advance = await planByCode(t, 'annual-advance');
    const trial = await planByCode(t, 'trial');
    const payg = await planByCode(t, 'payg-standard');
    const otherBundle = await bundleOf(t, advance.id, 1_000);
    const refusals: [object, number, string][] = [
      [planOrder(randomUUID()), 404, 'RATE_PLAN_NOT_FOUND'],
      [planOrder(trial.id), 404, 'RATE_PLAN_NOT_FOUND'],
      [planOrder(annual.id, { creditBundleId: otherBundle.id }), 404, 'CREDIT_BUNDLE_NOT_FOUND'],
      [planOrder(annual.id, { creditBundleId: randomUUID() }), 404, 'CREDIT_BUNDLE_NOT_FOUND'],
      [planOrder(payg.id, { creditBundleId: otherBundle.id }), 404, 'CREDIT_BUNDLE_NOT_FOUND'],
      // The annual plan accepts QNT, but this installation takes no QNT (no QNT token's chain).
      [planOrder(annual.id, { paymentMethod: 'QNT' }), 422, 'PAYMENT_METHOD_NOT_ACCEPTED'],
      // Pay as you go does not take bank transfers at all.
      [planOrder(payg.id), 422, 'PAYMENT_METHOD_NOT_ACCEPTED'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await post(t, '/order/plan', user, body);
      expect([res.statusCode, res.json().code], code).toEqual([status, code]);
    }
    const withdrawn = await post(t, '/order/plan', user, planOrder(annual.id, { paymentMethod: 'QNT' }));
    expect(withdrawn.json().invalidParams[0].name).toBe('paymentMethod');
    expect(await ordersOf(user.accountId)).toEqual([]);
    expect((await planState(t, user.accountId)).status).toBe('ACTIVE');
  });

  it('places an annual plan with a bundle: frozen prices, its invoice, bank details, the plan PENDING', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const bundle = await bundleOf(t, annual.id, 1_000);
    const order = await placePlan(t, user, planOrder(annual.id, { creditBundleId: bundle.id }));

    const bundlePence = usdCentsToPence(110_000, '1.27');
    expect(bundlePence).toBe(86_614);
    expect(order).toMatchObject({
      kind: 'PLAN',
      status: 'AWAITING_PAYMENT',
      paymentMethod: 'BANK_TRANSFER',
      ratePlan: { id: annual.id, name: 'Annual Subscription — Standard' },
      bundle: { id: bundle.id, credits: 1_000, priceUsdCents: 110_000 },
      feeGbpMinor: 600_000,
      bundleUsdCents: 110_000,
      usdPerGbp: '1.27',
      totalGbpMinor: 600_000 + bundlePence,
      paidGbpMinor: 0,
      paidAt: null,
      upfrontMonths: null,
    });
    expect(order.reference).toMatch(/^CNX-[0-9A-HJKMNP-TV-Z]{8}$/);
    const created = new Date(order.createdAt).getTime();
    expect(new Date(order.dueAt).getTime() - created).toBe(PLAN_TERMS.bankTransferTermsDays * 86_400_000);
    expect(order.bankTransfer).toEqual({
      accountName: 'Connect Sandbox Ltd (sample account)',
      bankName: 'Sandbox Bank plc',
      sortCode: '00-00-00',
      accountNumber: '00000000',
      iban: 'GB00SAND00000000000000',
      bic: 'SANDGB2L',
      reference: order.reference,
      amountGbpMinor: 686_614,
      dueAt: order.dueAt,
    });
    // The expected period, for the display: twelve months from now (it starts at payment).
    const start = new Date(order.periodStart!);
    const end = new Date(order.periodEnd!);
    expect(end.getUTCFullYear() - start.getUTCFullYear()).toBe(1);

    const { invoice, lines } = await invoiceOf(order.id);
    expect(invoice).toMatchObject({
      id: order.invoiceId,
      status: 'OPEN',
      kind: 'ORDER',
      number: expect.stringMatching(/^INV-\d{6}$/),
      totalMinor: 686_614,
      amountPaidMinor: 0,
      currency: 'GBP',
    });
    // Prices include VAT (the customer has no billing details: the issuer's country, GB, 20 %):
    // each line is its net amount with its VAT beside it; the total stays the price.
    const gross = (net: number, vat: number) => [net + vat, vat];
    expect(lines.map((line) => [line.description, ...gross(line.amountMinor, line.vatMinor)])).toEqual([
      [`Annual Subscription — Standard, 12 months from ${formatDate(order.createdAt)}`, 600_000, 100_000],
      ['Credit bundle — 1,000 credits ($1,100.00 at $1.27 to the pound)', 86_614, splitVat(86_614, 2000).vatMinor],
    ]);
    expect(invoice).toMatchObject({ vatTreatment: 'STANDARD', vatRateBp: 2000, vatMinor: 100_000 + 14_436 });
    expect(invoice!.subtotalMinor).toBe(686_614 - invoice!.vatMinor);
    // In dollars: the bundle's own cents plus the fee converted ($7,620.00 + $1,100.00).
    expect(invoice).toMatchObject({ usdPerGbp: '1.27', totalUsdCents: 762_000 + 110_000 });

    const state = await planState(t, user.accountId);
    expect(state).toMatchObject({ status: 'PENDING', statusReason: 'AWAITING_PAYMENT', pendingOrderId: order.id });
    // The trial's allowances stay in service while the order waits.
    const trial = await planByCode(t, 'trial');
    expect(await allowancesOf(t, user.accountId)).toMatchObject({
      status: 'PENDING',
      inService: true,
      applications: trial.applications,
    });
    expect((await eventsOf(user.accountId, 'order.placed')).map((e) => e.payload)).toEqual([
      {
        accountId: user.accountId,
        userId: user.sub,
        orderId: order.id,
        reference: order.reference,
        paymentMethod: 'BANK_TRANSFER',
      },
    ]);
  });

  it('an order invoice’s dollar total is the order’s own figures, not its rounded pence converted back', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    // $10.00 is 787p at $1.27 (787.4…): converted back, 600,787p would be $7,629.99.
    const [bundle] = await t.db.db
      .insert(creditBundles)
      .values({ ratePlanId: annual.id, credits: 7, priceUsdCents: 1_000, sortOrder: 99 })
      .returning();
    const order = await placePlan(t, user, planOrder(annual.id, { creditBundleId: bundle!.id }));
    expect(order).toMatchObject({ feeGbpMinor: 600_000, bundleUsdCents: 1_000, totalGbpMinor: 600_787 });
    expect(Math.round(600_787 * 1.27)).toBe(762_999);
    const { invoice } = await invoiceOf(order.id);
    expect(invoice).toMatchObject({ totalMinor: 600_787, totalUsdCents: 762_000 + 1_000 });
  });

  it('answers a repeated request with the same order and changes nothing, also when sent at once', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const body = planOrder(annual.id);
    const first = await placePlan(t, user, body);
    const again = await placePlan(t, user, body);
    expect(again).toEqual(first);

    const other = await customer(t);
    const concurrent = planOrder(annual.id);
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(t, '/order/plan', other, concurrent)));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((res) => ZOrder.parse(res.json()).id)).size).toBe(1);
    for (const account of [user, other]) {
      expect(await ordersOf(account.accountId)).toHaveLength(1);
      expect(await eventsOf(account.accountId, 'order.placed')).toHaveLength(1);
      expect(await eventsOf(account.accountId, 'plan.changed')).toHaveLength(1);
    }
    // A new key while the order waits: the plan has an order in progress.
    const res = await post(t, '/order/plan', user, planOrder((await planByCode(t, 'annual-advance')).id));
    expect([res.statusCode, res.json().code]).toEqual([409, 'ORDER_PENDING']);
  });

  it('tracks the caller’s own order only', async () => {
    const owner = await customer(t);
    const stranger = await customer(t);
    const order = await placePlan(t, owner, planOrder((await planByCode(t, 'annual-standard')).id));
    const mine = await post(t, '/order/track', owner, { orderId: order.id });
    expect(mine.statusCode).toBe(200);
    expect(ZOrder.parse(mine.json())).toEqual(order);
    for (const orderId of [order.id, randomUUID()]) {
      const res = await post(t, '/order/track', stranger, { orderId });
      expect([res.statusCode, res.json().code]).toEqual([404, 'ORDER_NOT_FOUND']);
    }
    const invalid = await post(t, '/order/track', owner, { orderId: 'nope' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().invalidParams[0].name).toBe('orderId');
    expect((await post(t, '/order/track', null, { orderId: order.id })).statusCode).toBe(401);
  });

  it('cancels the caller’s waiting order: CANCELLED, invoice VOID, the plan back on the trial', async () => {
    const owner = await customer(t);
    const stranger = await customer(t);
    const order = await placePlan(t, owner, planOrder((await planByCode(t, 'annual-standard')).id));
    const refused = await post(t, `/order/${order.id}/cancel`, stranger);
    expect([refused.statusCode, refused.json().code]).toEqual([404, 'ORDER_NOT_FOUND']);
    expect((await planState(t, owner.accountId)).status).toBe('PENDING');
    expect((await post(t, '/order/not-an-id/cancel', owner)).statusCode).toBe(400);

    const res = await post(t, `/order/${order.id}/cancel`, owner);
    expect(res.statusCode).toBe(200);
    expect(ZOrder.parse(res.json())).toMatchObject({ status: 'CANCELLED', bankTransfer: null });
    expect((await invoiceOf(order.id)).invoice.status).toBe('VOID');
    expect(await planState(t, owner.accountId)).toMatchObject({
      status: 'ACTIVE',
      statusReason: 'TRIAL',
      pendingOrderId: null,
    });
    const again = await post(t, `/order/${order.id}/cancel`, owner);
    expect([again.statusCode, again.json().code]).toEqual([409, 'ORDER_NOT_PAYABLE']);
    // Free to order again.
    await placePlan(t, owner, planOrder((await planByCode(t, 'annual-advance')).id));
  });

  it('activates pay as you go at once: nothing to pay, invoice PAID at 0, its allowances and credit limit', async () => {
    const user = await customer(t);
    const payg = await planByCode(t, 'payg-standard');
    const order = await placePlan(t, user, planOrder(payg.id, { paymentMethod: 'FIAT' }));
    expect(order).toMatchObject({
      status: 'PAID',
      totalGbpMinor: 0,
      feeGbpMinor: 0,
      bankTransfer: null,
      paymentMethod: 'FIAT',
    });
    expect(order.paidAt).not.toBeNull();
    const { invoice, lines } = await invoiceOf(order.id);
    expect(invoice).toMatchObject({ status: 'PAID', totalMinor: 0, amountPaidMinor: 0 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.description).toBe(`Pay as you go — Standard, 1 month from ${formatDate(order.paidAt!)}`);

    const state = await planState(t, user.accountId);
    expect(state).toMatchObject({ status: 'ACTIVE', statusReason: null, pendingOrderId: null, plan: { id: payg.id } });
    expect(state.periodEnd!.toISOString()).toBe(order.periodEnd);
    expect(await allowancesOf(t, user.accountId)).toMatchObject({
      status: 'ACTIVE',
      inService: true,
      applications: payg.applications,
      mainnets: payg.mainnets,
      rateLimit: payg.rateLimit,
    });
    const credits = await new LedgerRepository(t.db.db).balance(user.accountId, 'CREDIT');
    expect(credits.floor).toBe(-BigInt(t.app.deps.config.billing.paygCreditLimit));
    expect(await eventsOf(user.accountId, 'order.paid')).toHaveLength(1);
    expect(await eventsOf(user.accountId, 'order.placed')).toHaveLength(0);
    // Once only: one plan change (PLAN_PAID), not a PENDING in between.
    expect((await eventsOf(user.accountId, 'plan.changed')).map((e) => (e.payload as { cause: string }).cause)).toEqual(
      ['PLAN_PAID'],
    );
  });

  it('takes the upfront period the plan offers, and refuses any other or one for pay as you go', async () => {
    const user = await customer(t);
    const advance = await planByCode(t, 'annual-advance');
    const payg = await planByCode(t, 'payg-advance');
    const paygRes = await post(t, '/order/plan', user, planOrder(payg.id, { paymentMethod: 'FIAT', upfrontMonths: 3 }));
    expect(paygRes.statusCode).toBe(400);
    expect(paygRes.json().invalidParams).toEqual([
      { name: 'upfrontMonths', reason: 'Pay as you go has no fee to pay upfront. Leave the upfront period out.' },
    ]);
    const none = await post(t, '/order/plan', user, planOrder(advance.id, { upfrontMonths: 24 }));
    expect(none.json().invalidParams[0].reason).toBe('This plan offers no upfront period.');

    await t.db.db.update(ratePlans).set({ upfrontMonths: 24 }).where(eq(ratePlans.id, advance.id));
    try {
      const wrong = await post(t, '/order/plan', user, planOrder(advance.id, { upfrontMonths: 12 }));
      expect(wrong.json().invalidParams[0].reason).toBe('This plan’s upfront period is 24 months.');
      const order = await placePlan(t, user, planOrder(advance.id, { upfrontMonths: 24 }));
      expect(order).toMatchObject({ upfrontMonths: 24, feeGbpMinor: 3_600_000, totalGbpMinor: 3_600_000 });
      const start = new Date(order.periodStart!);
      expect(new Date(order.periodEnd!).getUTCFullYear() - start.getUTCFullYear()).toBe(2);
      expect((await invoiceOf(order.id)).lines[0]!.description).toMatch(/, 24 months from /);
    } finally {
      await t.db.db.update(ratePlans).set({ upfrontMonths: null }).where(eq(ratePlans.id, advance.id));
    }
  });

  it('draws references from Crockford’s alphabet', () => {
    const references = new Set(Array.from({ length: 500 }, newOrderReference));
    expect(references.size).toBe(500);
    for (const reference of references) expect(reference).toMatch(/^CNX-[0-9A-HJKMNP-TV-Z]{8}$/);
  });
});
