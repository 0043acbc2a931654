import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, type PlanTerms } from '@connect/db';
import {
  ZAvailableFeatures,
  ZSubscriptionTier,
  ZUsageReport,
  type TAvailableFeatures,
  type TSubscriptionTier,
  type TSubscriptionTierInput,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { termsOf as tierTerms } from '../../repositories/plan-terms.ts';
import { activate, addNetwork, createApplication } from '../application-manager/testing.ts';
import { GatewayRepository } from '../gateway/repository.ts';
import { InvoiceCloseRepository } from '../payment/invoices/close-repository.ts';
import { lifecycleOf } from './testing.ts';
import { addDays, fromSnapshot } from './transitions.ts';
import {
  allowancesOf,
  customer,
  placePlan,
  planByCode,
  planOrder,
  planState,
  post,
  receipt,
  subscriptionOf,
  type Session,
} from './test-support.ts';

/*
 * Issue 33 §3: "a change applies to new orders, and accounts keep what they bought until renewal".
 * Staff edit tiers (tiers.test.ts); here an account's allowances, gateway rate and pay-as-you-go
 * credit price stay as bought through an edit — GET /available, GET /subscription, the gateway's
 * route, the usage forecast and the month's close — while an order placed after it, and the
 * account's renewal (the periods sweep), take the tier as it is now.
 */

const BASE = '/api/account-plan/management/subscription-tiers';
type Allowances = TSubscriptionTierInput['allowances'];

const BOUGHT: Allowances = {
  applications: 7,
  tokens: 8,
  bridges: 9,
  blockchains: 0,
  mainnets: 4,
  testnets: 6,
  rateLimit: 40,
};
const EDITED: Allowances = {
  applications: 2,
  tokens: 3,
  bridges: 1,
  blockchains: 2,
  mainnets: 1,
  testnets: 2,
  rateLimit: 15,
};
const termsOf = (allowances: Allowances, creditPriceUsdCents: number | null = null): PlanTerms => ({
  ...allowances,
  creditPriceUsdCents,
});

function annualTier(overrides: Partial<TSubscriptionTierInput> = {}): TSubscriptionTierInput {
  return {
    name: `Annual — Terms ${randomUUID().slice(0, 8)}`,
    type: 'SUBSCRIPTION',
    tier: 'advance',
    productId: null,
    shortDescription: 'Kept until renewal.',
    fullDescription: 'Billed annually in advance.',
    feeGbpMinor: 100_000,
    qntPrice: null,
    creditPriceUsdCents: null,
    upfrontMonths: null,
    paymentMethods: ['BANK_TRANSFER'],
    allowances: BOUGHT,
    creditBundles: [],
    ...overrides,
  };
}

function paygTier(overrides: Partial<TSubscriptionTierInput> = {}): TSubscriptionTierInput {
  return annualTier({
    name: `Pay as you go — Terms ${randomUUID().slice(0, 8)}`,
    type: 'PAY_AS_YOU_GO',
    tier: 'standard',
    feeGbpMinor: 0,
    creditPriceUsdCents: 100,
    paymentMethods: ['FIAT', 'QNT'],
    ...overrides,
  });
}

describe('what an account bought (issue 33 §3): kept through a tier edit until its renewal', () => {
  let t: TestContext;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
  });
  afterAll(() => t?.close());

  const createTier = async (input: TSubscriptionTierInput): Promise<TSubscriptionTier> => {
    const res = await t.app.inject({ method: 'POST', url: BASE, headers: admin.headers, payload: input });
    expect(res.statusCode, res.body).toBe(201);
    return ZSubscriptionTier.parse(res.json());
  };
  /** Staff edit the tier: `input` as created, with `changes`. */
  const editTier = async (tier: TSubscriptionTier, input: TSubscriptionTierInput, changes: object) => {
    const payload = { ...input, name: tier.name, ...changes };
    const res = await t.app.inject({ method: 'PUT', url: `${BASE}/${tier.id}`, headers: admin.headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    return ZSubscriptionTier.parse(res.json());
  };
  const available = async (user: Session): Promise<TAvailableFeatures> => {
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/available', headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ZAvailableFeatures.parse(res.json()).availableFeatures;
  };
  /** The account bought `tier` by bank transfer, paid in full now. */
  const buy = async (user: Session, tier: TSubscriptionTier) => {
    const placed = await placePlan(t, user, planOrder(tier.id));
    const paid = await receipt(t, admin, placed.id, { amountGbpMinor: placed.totalGbpMinor });
    expect(paid.statusCode, paid.body).toBe(200);
    return placed;
  };
  const orderTerms = async (orderId: string) =>
    (await t.db.db.select({ terms: orders.terms }).from(orders).where(eq(orders.id, orderId)))[0]!.terms;
  /** The plan-periods job's sweep at `now`. */
  const sweep = (now: Date) => t.app.deps.runtime.accountPlan!.sweep(now);
  /** The gateway's rate for the account's application on the network (what it enforces). */
  const gatewayRate = async (applicationId: string, networkId: string) =>
    (await new GatewayRepository(t.app.deps.dbh).findRoute(applicationId, networkId, '2026-01-01'))!.rateLimit;

  it('keeps the allowances and rate limit bought; a new order and the renewal take the tier as edited', async () => {
    const input = annualTier();
    const tier = await createTier(input);
    const user = await customer(t);
    const placed = await buy(user, tier);
    expect(await orderTerms(placed.id)).toEqual(termsOf(BOUGHT));
    expect((await planState(t, user.accountId)).terms).toEqual(termsOf(BOUGHT));

    const network = await addNetwork(t);
    await activate(t, user.accountId, network.id);
    const app = await createApplication(t, user, [network.id]);
    const menu = await available(user);
    expect(menu['applications:create']).toMatchObject({ t: BOUGHT.applications, a: 1 });
    expect((await subscriptionOf(t, user)).allowances).toEqual(BOUGHT);
    expect(await gatewayRate(app.id, network.id)).toBe(BOUGHT.rateLimit);

    await editTier(tier, input, { allowances: EDITED, feeGbpMinor: 120_000 });

    // The account keeps what it bought: its menu, its subscription, its checks and the gateway's rate.
    expect(await available(user)).toEqual(menu);
    expect((await subscriptionOf(t, user)).allowances).toEqual(BOUGHT);
    expect(await allowancesOf(t, user.accountId)).toMatchObject({ ...BOUGHT, inService: true });
    expect(await gatewayRate(app.id, network.id)).toBe(BOUGHT.rateLimit);

    // An order placed after the edit buys the tier as edited.
    const later = await customer(t);
    const laterOrder = await buy(later, tier);
    expect(laterOrder.feeGbpMinor).toBe(120_000);
    expect(await orderTerms(laterOrder.id)).toEqual(termsOf(EDITED));
    expect((await subscriptionOf(t, later)).allowances).toEqual(EDITED);
    expect((await available(later))['applications:create']).toMatchObject({ t: EDITED.applications });

    // The renewal: the period ends, its renewal order is placed with the tier as it is now, and the
    // account takes those terms for the new period (and keeps them once it is paid).
    const { periodEnd } = await planState(t, user.accountId);
    expect((await sweep(addDays(periodEnd!, 0.001))).periodsEnded).toBeGreaterThanOrEqual(1);
    const renewed = await planState(t, user.accountId);
    expect(renewed).toMatchObject({ statusReason: 'RENEWAL_DUE', terms: termsOf(EDITED) });
    const [renewal] = await t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, user.accountId), eq(orders.kind, 'RENEWAL')));
    expect(renewal).toMatchObject({ feeGbpMinor: 120_000, terms: termsOf(EDITED) });
    expect((await subscriptionOf(t, user)).allowances).toEqual(EDITED);
    expect((await available(user))['applications:create']).toMatchObject({ t: EDITED.applications, a: 1 });
    expect(await gatewayRate(app.id, network.id)).toBe(EDITED.rateLimit);

    await editTier(tier, input, { allowances: BOUGHT, feeGbpMinor: 120_000 });
    const paid = await receipt(t, admin, renewal!.id, { amountGbpMinor: renewal!.totalGbpMinor });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await planState(t, user.accountId)).toMatchObject({ statusReason: null, terms: termsOf(EDITED) });
    expect((await subscriptionOf(t, user)).allowances).toEqual(EDITED);
  });

  it('a downgrade chosen for the next period starts with its renewal order’s terms, the lower tier as it is then', async () => {
    const highInput = annualTier();
    const lowInput = annualTier({ tier: 'standard', feeGbpMinor: 50_000, allowances: EDITED });
    const [high, low] = [await createTier(highInput), await createTier(lowInput)];
    const user = await customer(t);
    await buy(user, high);
    const chosen = await post(t, '/subscription/downgrade', user, { ratePlanId: low.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const lowered: Allowances = { ...EDITED, applications: 3, rateLimit: 10 };
    await editTier(low, lowInput, { allowances: lowered });
    // Until the period ends the account has what it bought.
    expect((await subscriptionOf(t, user)).allowances).toEqual(BOUGHT);

    const { periodEnd } = await planState(t, user.accountId);
    await sweep(addDays(periodEnd!, 0.001));
    expect(await planState(t, user.accountId)).toMatchObject({
      plan: { id: low.id },
      statusReason: 'RENEWAL_DUE',
      terms: termsOf(lowered),
    });
    expect((await subscriptionOf(t, user)).allowances).toEqual(lowered);
  });

  it('a payment taken back puts back the terms the account had before it (recorded on the order)', async () => {
    const tier = await createTier(annualTier());
    const user = await customer(t);
    const trial = (await planState(t, user.accountId)).terms;
    const trialRow = await planByCode(t, 'trial');
    expect(trial).toEqual(tierTerms(trialRow));
    const placed = await buy(user, tier);
    const [order] = await t.db.db.select().from(orders).where(eq(orders.id, placed.id));
    expect(order!.planBefore).toMatchObject({ terms: trial });

    await lifecycleOf(t).apply(user.accountId, {
      type: 'PAYMENT_REVERSED',
      orderId: placed.id,
      kind: 'PLAN',
      before: fromSnapshot(order!.planBefore),
    });
    expect(await planState(t, user.accountId)).toMatchObject({ status: 'PENDING', terms: trial });
    expect(await allowancesOf(t, user.accountId)).toMatchObject({
      applications: trialRow.applications,
      rateLimit: trialRow.rateLimit,
      inService: true,
    });
  });

  it('pay as you go keeps its credit price for the month’s close until its month rolls on', async () => {
    const input = paygTier();
    const tier = await createTier(input);
    const user = await customer(t);
    const placed = await placePlan(t, user, planOrder(tier.id, { paymentMethod: 'FIAT' }));
    expect(placed.status).toBe('PAID');
    expect(await orderTerms(placed.id)).toEqual(termsOf(BOUGHT, 100));
    // 150 credits used: 50 on credit, billed at the month's close.
    await new LedgerRepository(t.db.db).meter(user.accountId, 'CREDIT', 150n, {
      reason: 'used',
      reference: `test:${randomUUID()}`,
    });
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const closePrice = async () => {
      const figures = await new InvoiceCloseRepository(t.db.db).figures(monthStart, addDays(new Date(), 1 / 24));
      return figures.find((row) => row.accountId === user.accountId)?.creditPriceUsdCents;
    };
    const forecastPrice = async () => {
      const day = now.toISOString().slice(0, 10);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/application-manager/usage/report?from=${day}&to=${day}`,
        headers: user.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return ZUsageReport.parse(res.json()).forecast.creditPriceUsdCents;
    };
    const subscriptionPrice = async () => (await subscriptionOf(t, user)).plan.creditPriceUsdCents;
    expect([await closePrice(), await forecastPrice(), await subscriptionPrice()]).toEqual([100, 100, 100]);

    await editTier(tier, input, { creditPriceUsdCents: 110, allowances: EDITED });
    expect([await closePrice(), await forecastPrice(), await subscriptionPrice()]).toEqual([100, 100, 100]);
    expect((await subscriptionOf(t, user)).allowances).toEqual(BOUGHT);

    // Its month rolls on (pay as you go's renewal): the tier as it is now.
    const { periodEnd } = await planState(t, user.accountId);
    await sweep(addDays(periodEnd!, 0.001));
    const rolled = await planState(t, user.accountId);
    expect(rolled.periodEnd!.getTime()).toBeGreaterThan(periodEnd!.getTime());
    expect(rolled.terms).toEqual(termsOf(EDITED, 110));
    expect([await closePrice(), await forecastPrice(), await subscriptionPrice()]).toEqual([110, 110, 110]);
    expect((await subscriptionOf(t, user)).allowances).toEqual(EDITED);
  });
});
