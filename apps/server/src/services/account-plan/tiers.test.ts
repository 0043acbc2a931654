import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, orders } from '@connect/db';
import {
  ZFetchPlansResponse,
  ZPlansResponse,
  ZSubscriptionTier,
  ZSubscriptionTiersResponse,
  type TSubscriptionTier,
  type TSubscriptionTierInput,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { customer, placePlan, planByCode, planOrder, planState, post, receipt, trackOrder } from './test-support.ts';

type Session = { headers: { authorization: string } };
const BASE = '/api/account-plan/management/subscription-tiers';
const WEI = 10n ** 18n;

/** An annual tier as the form sends it; `overrides` changes any field. */
function annualTier(overrides: Partial<TSubscriptionTierInput> = {}): TSubscriptionTierInput {
  return {
    name: `Annual — Gold ${randomUUID().slice(0, 8)}`,
    type: 'SUBSCRIPTION',
    tier: 'advance',
    productId: 'prod_annual_gold',
    shortDescription: 'Gold: every blockchain.',
    fullDescription: 'Billed annually in advance, with every blockchain.',
    feeGbpMinor: 100_000,
    qntPrice: (12n * WEI).toString(),
    creditPriceUsdCents: null,
    upfrontMonths: null,
    paymentMethods: ['BANK_TRANSFER', 'QNT'],
    allowances: { applications: 7, tokens: 8, bridges: 9, blockchains: 0, mainnets: 4, testnets: 6, rateLimit: 40 },
    creditBundles: [
      { credits: 500, priceUsdCents: 55_000 },
      { credits: 2_000, priceUsdCents: 200_000 },
    ],
    ...overrides,
  };
}

describe('subscription tiers (issue 33 §3): staff manage the plans customers buy', () => {
  let t: TestContext;
  let admin: Session & { sub: string; email: string };
  let sales: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    sales = await signInAs(t, { role: 'QUANT_SALES' });
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, session: Session | null, body?: unknown) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: session?.headers ?? {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  const list = async () => {
    const res = await call('GET', '', admin);
    expect(res.statusCode, res.body).toBe(200);
    return ZSubscriptionTiersResponse.parse(res.json()).tiers;
  };
  const create = async (input: TSubscriptionTierInput = annualTier()): Promise<TSubscriptionTier> => {
    const res = await call('POST', '', admin, input);
    expect(res.statusCode, res.body).toBe(201);
    return ZSubscriptionTier.parse(res.json());
  };
  const catalogue = async (session: Session) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/plans', headers: session.headers });
    return ZPlansResponse.parse(res.json()).plans;
  };
  const auditOf = (recordId: string) =>
    t.db.db.select().from(auditLog).where(eq(auditLog.recordId, recordId)).orderBy(asc(auditLog.id));

  it('is for administrators: sales and customers are refused (403), no session is 401', async () => {
    const user = await customer(t);
    const id = randomUUID();
    const calls: [Parameters<typeof call>[0], string, unknown?][] = [
      ['GET', ''],
      ['POST', '', annualTier()],
      ['PUT', `/${id}`, annualTier()],
      ['PUT', '/order', { tierIds: [id] }],
      ['POST', `/${id}/retire`],
      ['POST', `/${id}/unretire`],
      ['DELETE', `/${id}`],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(method, url, sales, body)).statusCode, `${method} ${url} as sales`).toBe(403);
      expect((await call(method, url, user, body)).statusCode, `${method} ${url} as a customer`).toBe(403);
      expect((await call(method, url, null, body)).statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect(await list()).toHaveLength(4);
  });

  it('lists the seeded tiers in order with their bundles and usage; the trial is not a tier', async () => {
    const tiers = await list();
    expect(tiers.map((tier) => tier.code)).toEqual([
      'payg-standard',
      'payg-advance',
      'annual-standard',
      'annual-advance',
    ]);
    expect(tiers.map((tier) => tier.order)).toEqual([1, 2, 3, 4]);
    const annual = tiers.find((tier) => tier.code === 'annual-standard')!;
    expect(annual).toMatchObject({ type: 'SUBSCRIPTION', retired: false, feeGbpMinor: 600_000 });
    expect(annual.creditBundles.map((bundle) => bundle.credits)).toEqual([1_000, 5_000, 10_000, 50_000]);
    expect(tiers.some((tier) => tier.code === 'trial')).toBe(false);
    const trial = await planByCode(t, 'trial');
    expect((await call('PUT', `/${trial.id}`, admin, annualTier())).json()).toMatchObject({ code: 'TIER_NOT_FOUND' });
  });

  it('creates a tier that customers see in their plans table at once, audited', async () => {
    const user = await customer(t);
    const tier = await create();
    expect(tier).toMatchObject({ retired: false, order: 5, usage: { accounts: 0, orders: 0 } });
    expect(tier.code).toMatch(/^annual-gold-/);
    expect(tier.creditBundles.map((bundle) => [bundle.credits, bundle.priceUsdCents, bundle.isOrdered])).toEqual([
      [500, 55_000, false],
      [2_000, 200_000, false],
    ]);
    const plans = await catalogue(user);
    expect(plans.at(-1)).toMatchObject({ id: tier.id, name: tier.name, feeGbpMinor: 100_000, hasCreditBundles: true });
    expect(plans.at(-1)!.allowances).toEqual(tier.allowances);
    const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/v2/fetch-plans', headers: user.headers });
    const annual = ZFetchPlansResponse.parse(res.json()).groups.find((group) => group.type === 'SUBSCRIPTION')!;
    expect(annual.tiers.map((plan) => plan.id)).toContain(tier.id);
    const bundles = await t.app.inject({
      method: 'GET',
      url: `/api/account-plan/rate-plan/${tier.id}/credit-bundles`,
      headers: user.headers,
    });
    expect(bundles.json().bundles.map((bundle: { credits: number }) => bundle.credits)).toEqual([500, 2_000]);

    const [entry] = await auditOf(tier.id);
    expect(entry).toMatchObject({ action: 'TIER_CREATED', actorEmail: admin.email, outcome: 'DONE', before: null });
    expect(entry!.after).toMatchObject({ name: tier.name, feeGbpMinor: 100_000, qntPrice: (12n * WEI).toString() });
  });

  it('refuses bad input with the field that is wrong (400), and a name another tier has (409)', async () => {
    const res = await call('POST', '', admin, {
      ...annualTier({ type: 'PAY_AS_YOU_GO', feeGbpMinor: 500 }),
      name: ' ',
      allowances: { applications: -1 },
    });
    expect(res.statusCode).toBe(400);
    const names = res.json().invalidParams.map((param: { name: string }) => param.name);
    expect(names).toEqual(expect.arrayContaining(['name', 'allowances.applications']));
    const payg = await call('POST', '', admin, annualTier({ type: 'PAY_AS_YOU_GO', creditBundles: [] }));
    expect(payg.statusCode).toBe(400);
    expect(payg.json().invalidParams).toEqual(
      expect.arrayContaining([
        { name: 'feeGbpMinor', reason: expect.stringContaining('no fee') },
        { name: 'creditPriceUsdCents', reason: expect.any(String) },
        { name: 'paymentMethods', reason: expect.stringContaining('bank transfer') },
      ]),
    );
    const pricey = await call(
      'POST',
      '',
      admin,
      annualTier({ creditBundles: [{ credits: 10, priceUsdCents: 1_200 }] }),
    );
    expect(pricey.json().invalidParams).toEqual([
      { name: 'creditBundles.0.priceUsdCents', reason: 'A bundle costs at most $1.10 a credit including VAT.' },
    ]);
    const taken = await call('POST', '', admin, annualTier({ name: 'annual subscription — STANDARD' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'TIER_NAME_EXISTS', invalidParams: [{ name: 'name' }] });
    expect(await list()).toHaveLength(5);
  });

  it('an edit applies to new orders; orders placed before keep their prices; audited with what changed', async () => {
    const tier = await create();
    const first = await customer(t);
    const before = await placePlan(t, first, planOrder(tier.id));
    expect(before.feeGbpMinor).toBe(100_000);

    const res = await call('PUT', `/${tier.id}`, admin, {
      ...annualTier({ name: tier.name, feeGbpMinor: 250_000 }),
      creditBundles: tier.creditBundles.map(({ id, credits }) => ({ id, credits, priceUsdCents: credits * 100 })),
    });
    expect(res.statusCode, res.body).toBe(200);
    // An order waits for its payment: the account is not on the tier yet, but the order names it.
    expect(ZSubscriptionTier.parse(res.json())).toMatchObject({
      feeGbpMinor: 250_000,
      usage: { accounts: 0, orders: 1 },
    });

    expect((await trackOrder(t, first, before.id)).feeGbpMinor).toBe(100_000);
    const second = await customer(t);
    expect((await placePlan(t, second, planOrder(tier.id))).feeGbpMinor).toBe(250_000);

    const entries = await auditOf(tier.id);
    expect(entries.map((entry) => entry.action)).toEqual(['TIER_CREATED', 'TIER_UPDATED']);
    expect(entries[1]!.before).toMatchObject({ feeGbpMinor: 100_000 });
    expect(entries[1]!.after).toMatchObject({ feeGbpMinor: 250_000 });
    expect(Object.keys(entries[1]!.after!).sort()).toEqual(['creditBundles', 'feeGbpMinor']);
  });

  it('a tier in use keeps its type and its ordered bundles; unknown ids are 404', async () => {
    const tier = await create();
    const user = await customer(t);
    const bundle = tier.creditBundles[0]!;
    await placePlan(t, user, planOrder(tier.id, { creditBundleId: bundle.id }));
    const edit = (overrides: Partial<TSubscriptionTierInput>) =>
      call('PUT', `/${tier.id}`, admin, annualTier({ name: tier.name, ...overrides }));
    const retyped = await edit({ tier: 'standard', creditBundles: tier.creditBundles });
    expect(retyped.json()).toMatchObject({ code: 'TIER_TYPE_FIXED', invalidParams: [{ name: 'tier' }] });
    const dropped = await edit({ creditBundles: [tier.creditBundles[1]!] });
    expect(dropped.statusCode).toBe(409);
    expect(dropped.json()).toMatchObject({
      code: 'CREDIT_BUNDLE_IN_USE',
      detail: expect.stringContaining('500 credits'),
    });
    // Repriced, and the other bundle swapped for a new one: allowed.
    const swapped = await edit({
      creditBundles: [
        { ...bundle, priceUsdCents: 40_000 },
        { credits: 3_000, priceUsdCents: 300_000 },
      ],
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().creditBundles).toMatchObject([
      { id: bundle.id, credits: 500, priceUsdCents: 40_000, isOrdered: true },
      { credits: 3_000, isOrdered: false },
    ]);
    const foreign = await edit({ creditBundles: [{ id: randomUUID(), credits: 1, priceUsdCents: 1 }] });
    expect(foreign.json()).toMatchObject({ code: 'CREDIT_BUNDLE_NOT_FOUND' });
    for (const [method, url] of [
      ['PUT', `/${randomUUID()}`],
      ['POST', `/${randomUUID()}/retire`],
      ['DELETE', `/${randomUUID()}`],
    ] as const) {
      const res = await call(method, url, admin, method === 'PUT' ? annualTier() : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'TIER_NOT_FOUND' });
    }
  });

  it('a retired tier is hidden from sale; the accounts on it keep it, its bundles and its renewal', async () => {
    const tier = await create();
    const staff = await signInAs(t, { role: 'QUANT_ADMIN' });
    const holder = await customer(t);
    const placed = await placePlan(t, holder, planOrder(tier.id));
    // Paid 400 days ago: the year ended 35 days ago, so the next sweep renews it.
    const paidAt = new Date(Date.now() - 400 * 86_400_000);
    expect(
      (await receipt(t, staff, placed.id, { amountGbpMinor: placed.totalGbpMinor, receivedAt: paidAt.toISOString() }))
        .statusCode,
    ).toBe(200);

    const retired = await call('POST', `/${tier.id}/retire`, admin);
    expect(retired.statusCode).toBe(200);
    expect(retired.json()).toMatchObject({ retired: true });
    expect((await call('POST', `/${tier.id}/retire`, admin)).json()).toMatchObject({ retired: true });

    const other = await customer(t);
    expect((await catalogue(other)).map((plan) => plan.id)).not.toContain(tier.id);
    const ordered = await post(t, '/order/plan', other, planOrder(tier.id));
    expect(ordered.statusCode).toBe(404);
    expect(ordered.json()).toMatchObject({ code: 'RATE_PLAN_NOT_FOUND' });
    const bundlesUrl = `/api/account-plan/rate-plan/${tier.id}/credit-bundles`;
    expect((await t.app.inject({ method: 'GET', url: bundlesUrl, headers: other.headers })).statusCode).toBe(404);

    // The account on it: its plan in service, its bundles on sale to it, its renewal placed.
    expect((await planState(t, holder.accountId)).plan.id).toBe(tier.id);
    const own = await t.app.inject({ method: 'GET', url: bundlesUrl, headers: holder.headers });
    expect(own.statusCode).toBe(200);
    const bundleId = own.json().bundles[0].id as string;
    const credits = await post(t, '/order/credits', holder, {
      idempotencyKey: randomUUID(),
      creditBundleId: bundleId,
      paymentMethod: 'BANK_TRANSFER',
      terms: planOrder(tier.id).terms,
    });
    expect(credits.statusCode, credits.body).toBe(200);
    await t.app.deps.runtime.accountPlan!.sweep(new Date());
    const renewal = await t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, holder.accountId), eq(orders.kind, 'RENEWAL')));
    expect(renewal).toMatchObject([{ ratePlanId: tier.id, feeGbpMinor: 100_000 }]);

    const back = await call('POST', `/${tier.id}/unretire`, admin);
    expect(back.json()).toMatchObject({ retired: false });
    expect((await catalogue(other)).map((plan) => plan.id)).toContain(tier.id);
    expect((await auditOf(tier.id)).map((entry) => entry.action)).toEqual([
      'TIER_CREATED',
      'TIER_RETIRED',
      'TIER_UNRETIRED',
    ]);
  });

  it('deletes only a tier nothing names: one in use is 409 TIER_IN_USE (retire it instead)', async () => {
    const used = await create();
    await placePlan(t, await customer(t), planOrder(used.id));
    const refused = await call('DELETE', `/${used.id}`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'TIER_IN_USE', detail: expect.stringContaining('Retire it instead') });
    expect((await list()).find((tier) => tier.id === used.id)?.usage).toEqual({ accounts: 0, orders: 1 });
    const unused = await create();
    const deleted = await call('DELETE', `/${unused.id}`, admin);
    expect(deleted.statusCode).toBe(204);
    expect((await list()).map((tier) => tier.id)).not.toContain(unused.id);
    const [created, gone] = await auditOf(unused.id);
    expect(created!.action).toBe('TIER_CREATED');
    expect(gone).toMatchObject({ action: 'TIER_DELETED', after: null, before: { name: unused.name } });
  });

  it('reorders the tiers (every one once), and the customers’ catalogue follows', async () => {
    const tiers = await list();
    const ids = tiers.map((tier) => tier.id);
    const stale = await call('PUT', '/order', admin, { tierIds: ids.slice(1) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'TIER_ORDER_STALE' });
    expect((await call('PUT', '/order', admin, { tierIds: [ids[0], ids[0]] })).statusCode).toBe(400);

    const moved = [ids[1]!, ids[0]!, ...ids.slice(2)];
    const res = await call('PUT', '/order', admin, { tierIds: moved });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZSubscriptionTiersResponse.parse(res.json()).tiers.map((tier) => tier.id)).toEqual(moved);
    const plans = await catalogue(await customer(t));
    expect(plans.map((plan) => plan.id)).toEqual(moved.filter((id) => plans.some((plan) => plan.id === id)));
    const entries = await auditOf(ids[0]!);
    expect(entries.at(-1)).toMatchObject({ action: 'TIER_REORDERED', before: { order: 1 }, after: { order: 2 } });
  });

  // What an account bought is kept until its renewal, whatever staff edit: terms.test.ts.
});
