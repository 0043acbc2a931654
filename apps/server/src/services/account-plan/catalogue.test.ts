import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratePlans, seedReferenceData } from '@connect/db';
import {
  ZCreditBundlesResponse,
  ZFetchPlansResponse,
  ZPlansResponse,
  type TCreditBundlesResponse,
  type TFetchPlansResponse,
  type TPlansResponse,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';

type Headers = { authorization: string };

describe('account-plan service: the plan catalogue', () => {
  let t: TestContext;
  let headers: Headers;
  beforeAll(async () => {
    t = await createTestApp();
    headers = (await signInAs(t)).headers;
  });
  afterAll(() => t?.close());

  const get = (url: string, h: Partial<Headers> = headers) =>
    t.app.inject({ method: 'GET', url: `/api/account-plan${url}`, headers: h });
  const plans = async () => ZPlansResponse.parse((await get('/plans')).json<TPlansResponse>()).plans;

  it('GET /plans: the seeded plans in order, pay as you go then the annual subscription, each in standard and advance', async () => {
    const list = await plans();
    expect(list.map((plan) => [plan.type, plan.tier])).toEqual([
      ['PAY_AS_YOU_GO', 'standard'],
      ['PAY_AS_YOU_GO', 'advance'],
      ['SUBSCRIPTION', 'standard'],
      ['SUBSCRIPTION', 'advance'],
    ]);
    for (const plan of list.filter((p) => p.type === 'PAY_AS_YOU_GO')) {
      expect(plan).toMatchObject({ billing: 'MONTHLY', feeGbpMinor: 0, qntPrice: null, hasCreditBundles: false });
      // Spec §9: pay-as-you-go credits at most $1.20 each.
      expect(plan.creditPriceUsdCents).toBeGreaterThan(0);
      expect(plan.creditPriceUsdCents).toBeLessThanOrEqual(120);
    }
    for (const plan of list.filter((p) => p.type === 'SUBSCRIPTION')) {
      expect(plan).toMatchObject({ billing: 'ANNUAL', hasCreditBundles: true, creditPriceUsdCents: null });
      expect(plan.feeGbpMinor).toBeGreaterThan(0);
      expect(BigInt(plan.qntPrice!)).toBeGreaterThan(0n);
      // Spec §9: the annual fee is paid in advance in QNT, so QNT is offered first.
      expect(plan.paymentMethods[0]).toBe('QNT');
    }
    const [standard, advance] = list.filter((p) => p.type === 'SUBSCRIPTION');
    expect(advance!.allowances.blockchains).toBe(0); // 0 means all
    // Spec doc 2 §2's upfront period option: the standard annual plan offers its first 6 months.
    expect(list.map((plan) => [plan.code, plan.upfrontMonths])).toEqual([
      ['payg-standard', null],
      ['payg-advance', null],
      ['annual-standard', 6],
      ['annual-advance', null],
    ]);
    expect(advance!.allowances.applications).toBeGreaterThan(standard!.allowances.applications);
  });

  it('GET /v2/fetch-plans: the plans table — Pay as you go against Annual Subscription, with their tiers', async () => {
    const res = await get('/v2/fetch-plans');
    expect(res.statusCode).toBe(200);
    const { groups } = ZFetchPlansResponse.parse(res.json<TFetchPlansResponse>());
    expect(groups.map((group) => [group.name, group.billing, group.tiers.map((tier) => tier.tier)])).toEqual([
      ['Pay as you go', 'MONTHLY', ['standard', 'advance']],
      ['Annual Subscription', 'ANNUAL', ['standard', 'advance']],
    ]);
  });

  it('GET /rate-plan/{id}/credit-bundles: the sliding scale of an annual plan, at most $1.10 a credit', async () => {
    const annual = (await plans()).find((plan) => plan.code === 'annual-standard')!;
    const res = await get(`/rate-plan/${annual.id}/credit-bundles`);
    expect(res.statusCode).toBe(200);
    const { ratePlanId, bundles } = ZCreditBundlesResponse.parse(res.json<TCreditBundlesResponse>());
    expect(ratePlanId).toBe(annual.id);
    expect(bundles.length).toBeGreaterThan(1);
    const units = bundles.map((bundle) => bundle.unitPriceUsdCents);
    expect(Math.max(...units)).toBeLessThanOrEqual(110);
    // A sliding scale: more credits, a lower price per credit.
    expect([...units].sort((a, b) => b - a)).toEqual(units);
    expect(bundles.map((bundle) => bundle.credits)).toEqual([...bundles.map((b) => b.credits)].sort((a, b) => a - b));
  });

  it('a pay-as-you-go plan sells no bundles; an unknown or withdrawn plan is 404, a malformed id 400', async () => {
    const payg = (await plans()).find((plan) => plan.code === 'payg-standard')!;
    expect((await get(`/rate-plan/${payg.id}/credit-bundles`)).json()).toEqual({ ratePlanId: payg.id, bundles: [] });
    const unknown = await get(`/rate-plan/${randomUUID()}/credit-bundles`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'RATE_PLAN_NOT_FOUND' });
    expect((await get('/rate-plan/not-a-uuid/credit-bundles')).statusCode).toBe(400);

    await t.db.db.update(ratePlans).set({ isActive: false }).where(eq(ratePlans.id, payg.id));
    try {
      expect((await get(`/rate-plan/${payg.id}/credit-bundles`)).json()).toMatchObject({ code: 'RATE_PLAN_NOT_FOUND' });
      expect((await plans()).map((plan) => plan.code)).not.toContain('payg-standard');
    } finally {
      await t.db.db.update(ratePlans).set({ isActive: true }).where(eq(ratePlans.id, payg.id));
    }
  });

  it('seeding again keeps what staff changed and adds nothing twice', async () => {
    const before = await plans();
    await t.db.db.update(ratePlans).set({ name: 'Renamed by staff' }).where(eq(ratePlans.code, 'annual-advance'));
    await seedReferenceData(t.db.db);
    const after = await plans();
    expect(after).toHaveLength(before.length);
    expect(after.find((plan) => plan.code === 'annual-advance')!.name).toBe('Renamed by staff');
    const annual = after.find((plan) => plan.code === 'annual-standard')!;
    const { bundles } = (await get(`/rate-plan/${annual.id}/credit-bundles`)).json<TCreditBundlesResponse>();
    expect(bundles).toHaveLength(4);
  });

  it('every catalogue route needs a signed-in user', async () => {
    for (const url of ['/plans', '/v2/fetch-plans', `/rate-plan/${randomUUID()}/credit-bundles`]) {
      expect((await get(url, {})).statusCode, url).toBe(401);
    }
  });
});
