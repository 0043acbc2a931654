import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, accountNetworks, accountPlans, networks } from '@connect/db';
import { PLAN_TERMS, ZSubscription, type TSubscription } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import { newPlanUser, payPlan, planByCode, type PlanUser } from './testing.ts';

type Headers = { authorization: string };

describe('account-plan service: the subscription', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST', url: string, headers: Partial<Headers>, payload?: unknown) =>
    t.app.inject({ method, url: `/api/account-plan${url}`, headers, payload: payload as object | undefined });
  async function subscription(user: PlanUser): Promise<TSubscription> {
    const res = await call('GET', '/subscription', user.headers);
    expect(res.statusCode, res.body).toBe(200);
    return ZSubscription.parse(res.json());
  }
  async function post(user: PlanUser, url: string, payload?: unknown) {
    const res = await call('POST', url, user.headers, payload ?? {});
    return { status: res.statusCode, body: res.json() as TSubscription & { code?: string } };
  }

  it('a new account: the trial, active and in service, its allowances, nothing used, its trial credits', async () => {
    const user = await newPlanUser(t);
    const sub = await subscription(user);
    expect(sub).toMatchObject({
      plan: { code: 'trial', name: 'Trial', type: 'TRIAL', billing: 'TRIAL', feeGbpMinor: 0 },
      status: 'ACTIVE',
      statusReason: 'TRIAL',
      inService: true,
      periodEnd: null,
      cancelAtPeriodEnd: false,
      nextPlan: null,
      allowances: { applications: 3, tokens: 5, bridges: 2, mainnets: 0 },
      usage: { applications: 0, tokens: 0, bridges: 0, blockchains: 0, mainnets: 0, testnets: 0 },
      credits: { available: TRIAL_CREDITS, balance: TRIAL_CREDITS, floor: 0 },
      lowCredits: false,
      pendingOrder: null,
      availablePaymentMethods: ['FIAT', 'BANK_TRANSFER'],
    });
    const trialDays = (Date.parse(sub.trialEndsAt!) - Date.parse(sub.startedAt)) / 86_400_000;
    expect(trialDays).toBe(PLAN_TERMS.trialDays);
  });

  it('counts the usage: the counted features and the activated networks by type and blockchain', async () => {
    const user = await newPlanUser(t);
    // The account's features exist from its creation; each counted one records what is used.
    for (const [feature, used] of [
      ['applications:create', 2],
      ['tokens:create', 4],
      ['bridges:create', 1],
      ['reward', 9],
    ] as const) {
      await t.db.db
        .insert(accountFeatures)
        .values({ accountId: user.accountId, feature, used })
        .onConflictDoUpdate({ target: [accountFeatures.accountId, accountFeatures.feature], set: { used } });
    }
    const catalogue = await t.db.db.select().from(networks);
    const testnets = catalogue.filter((network) => network.networkType === 'testnet');
    const mainnets = catalogue.filter((network) => network.networkType === 'mainnet');
    const chosen = [...testnets.slice(0, 2), ...mainnets.slice(0, 1)];
    await t.db.db
      .insert(accountNetworks)
      .values(chosen.map((network) => ({ accountId: user.accountId, networkId: network.id })));
    expect((await subscription(user)).usage).toEqual({
      applications: 2,
      tokens: 4,
      bridges: 1,
      blockchains: new Set(chosen.map((network) => network.technology)).size,
      mainnets: Math.min(1, mainnets.length),
      testnets: Math.min(2, testnets.length),
    });
  });

  it('warns of low credits at the threshold and below, not above', async () => {
    const user = await newPlanUser(t);
    const ledger = new LedgerRepository(t.db.db);
    const spend = (amount: number) =>
      ledger.consume(user.accountId, 'CREDIT', BigInt(amount), { reason: 'Spent', reference: `test:${randomUUID()}` });
    await spend(TRIAL_CREDITS - PLAN_TERMS.lowCreditsThreshold - 1);
    expect((await subscription(user)).lowCredits).toBe(false);
    await spend(1);
    expect(await subscription(user)).toMatchObject({
      lowCredits: true,
      credits: { available: PLAN_TERMS.lowCreditsThreshold },
    });
  });

  it('a paid annual plan: its dates, allowances and fee; cancel keeps it until the period end, resume renews it', async () => {
    const user = await newPlanUser(t);
    const start = new Date('2026-03-01T09:00:00.000Z');
    await payPlan(t, user.accountId, 'annual-standard', start);
    const sub = await subscription(user);
    expect(sub).toMatchObject({
      plan: { code: 'annual-standard', type: 'SUBSCRIPTION', billing: 'ANNUAL' },
      status: 'ACTIVE',
      statusReason: null,
      startedAt: start.toISOString(),
      periodEnd: '2027-03-01T09:00:00.000Z',
    });
    expect(sub.plan.feeGbpMinor).toBeGreaterThan(0);

    const cancelled = await post(user, '/subscription/cancel');
    expect(cancelled.status).toBe(200);
    expect(ZSubscription.parse(cancelled.body)).toMatchObject({
      status: 'ACTIVE',
      inService: true,
      cancelAtPeriodEnd: true,
      periodEnd: '2027-03-01T09:00:00.000Z',
    });
    // Cancelling again changes nothing (and tells nothing again).
    expect((await post(user, '/subscription/cancel')).body.cancelAtPeriodEnd).toBe(true);

    const resumed = await post(user, '/subscription/resume');
    expect(resumed.status).toBe(200);
    expect(resumed.body.cancelAtPeriodEnd).toBe(false);
    const again = await post(user, '/subscription/resume');
    expect(again).toMatchObject({ status: 409, body: { code: 'SUBSCRIPTION_NOT_CANCELLED' } });
  });

  it('the trial can be neither cancelled nor downgraded', async () => {
    const user = await newPlanUser(t);
    expect(await post(user, '/subscription/cancel')).toMatchObject({
      status: 409,
      body: { code: 'SUBSCRIPTION_NOT_CANCELLABLE' },
    });
    expect(await post(user, '/subscription/downgrade', { ratePlanId: null })).toMatchObject({
      status: 409,
      body: { code: 'SUBSCRIPTION_NOT_CANCELLABLE' },
    });
  });

  it('downgrade: a lower plan on sale for the next period, null to keep the plan; higher, same, trial or unknown refused', async () => {
    const user = await newPlanUser(t);
    await payPlan(t, user.accountId, 'annual-advance', new Date('2026-03-01T09:00:00.000Z'));
    const lower = await planByCode(t, 'annual-standard');
    const chosen = await post(user, '/subscription/downgrade', { ratePlanId: lower.id });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body).toMatchObject({
      plan: { code: 'annual-advance' },
      nextPlan: { id: lower.id, name: lower.name },
    });
    // Choosing a downgrade withdraws a cancellation; cancelling drops the downgrade.
    expect((await post(user, '/subscription/cancel')).body).toMatchObject({ cancelAtPeriodEnd: true, nextPlan: null });
    expect((await post(user, '/subscription/downgrade', { ratePlanId: lower.id })).body).toMatchObject({
      cancelAtPeriodEnd: false,
      nextPlan: { id: lower.id },
    });
    expect((await post(user, '/subscription/downgrade', { ratePlanId: null })).body.nextPlan).toBeNull();

    const same = await planByCode(t, 'annual-advance');
    expect(await post(user, '/subscription/downgrade', { ratePlanId: same.id })).toMatchObject({
      status: 409,
      body: { code: 'PLAN_ALREADY_CURRENT' },
    });
    const trial = await planByCode(t, 'trial');
    expect(await post(user, '/subscription/downgrade', { ratePlanId: trial.id })).toMatchObject({
      status: 404,
      body: { code: 'RATE_PLAN_NOT_FOUND' },
    });
    expect(await post(user, '/subscription/downgrade', { ratePlanId: randomUUID() })).toMatchObject({
      status: 404,
      body: { code: 'RATE_PLAN_NOT_FOUND' },
    });
    const payg = await newPlanUser(t);
    await payPlan(t, payg.accountId, 'payg-standard', new Date('2026-03-01T09:00:00.000Z'));
    const higher = await planByCode(t, 'payg-advance');
    expect(await post(payg, '/subscription/downgrade', { ratePlanId: higher.id })).toMatchObject({
      status: 409,
      body: { code: 'PLAN_ALREADY_CURRENT' },
    });
  });

  it('refuses invalid bodies with their invalid params', async () => {
    const user = await newPlanUser(t);
    await payPlan(t, user.accountId, 'annual-advance', new Date('2026-03-01T09:00:00.000Z'));
    for (const payload of [{}, { ratePlanId: 'not-a-uuid' }, { ratePlanId: 7 }]) {
      const res = await call('POST', '/subscription/downgrade', user.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect((res.json() as { invalidParams?: { name: string }[] }).invalidParams?.[0]?.name).toBe('ratePlanId');
    }
    expect((await subscription(user)).nextPlan).toBeNull();
  });

  it("each user changes only their own account's plan and sees only their own", async () => {
    const me = await newPlanUser(t);
    const other = await newPlanUser(t);
    const start = new Date('2026-03-01T09:00:00.000Z');
    await payPlan(t, me.accountId, 'annual-standard', start);
    await payPlan(t, other.accountId, 'annual-advance', start);
    await post(me, '/subscription/cancel');
    expect((await subscription(other)).cancelAtPeriodEnd).toBe(false);
    const lower = await planByCode(t, 'payg-standard');
    await post(other, '/subscription/downgrade', { ratePlanId: lower.id });
    expect((await subscription(me)).nextPlan).toBeNull();
    expect((await subscription(me)).plan.code).toBe('annual-standard');
    expect((await subscription(other)).plan.code).toBe('annual-advance');
  });

  it('answers the order awaiting payment, as the orders answer it', async () => {
    const user = await newPlanUser(t);
    const plan = await planByCode(t, 'annual-standard');
    const placed = await call('POST', '/order/plan', user.headers, {
      idempotencyKey: randomUUID(),
      ratePlanId: plan.id,
      paymentMethod: 'BANK_TRANSFER',
      terms: { termsAndConditions: true, acceptableUsePolicy: true, privacyPolicy: true },
    });
    expect(placed.statusCode, placed.body).toBeLessThan(300);
    const order = placed.json() as { id: string; reference: string };
    const sub = await subscription(user);
    expect(sub).toMatchObject({
      status: 'PENDING',
      statusReason: 'AWAITING_PAYMENT',
      inService: true,
      plan: { code: 'trial' },
      pendingOrder: { id: order.id, reference: order.reference, status: 'AWAITING_PAYMENT', kind: 'PLAN' },
    });
    expect(sub.pendingOrder?.bankTransfer?.reference).toBe(order.reference);
    expect(sub.openOrders.map((open) => open.id)).toEqual([order.id]);
    // Nobody else sees it.
    const stranger = await subscription(await newPlanUser(t));
    expect(stranger.pendingOrder).toBeNull();
    expect(stranger.openOrders).toEqual([]);
  });

  it('requires a signed-in user; is documented with the bearer token', async () => {
    for (const [method, url] of [
      ['GET', '/subscription'],
      ['POST', '/subscription/cancel'],
      ['POST', '/subscription/resume'],
      ['POST', '/subscription/downgrade'],
    ] as const) {
      expect((await call(method, url, {}, method === 'POST' ? {} : undefined)).statusCode).toBe(401);
      const declared = t.app.routeAccess.find((route) => route.url === `/api/account-plan${url}`);
      expect(declared?.access).toBe('user');
    }
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    };
    expect(doc.paths['/api/account-plan/subscription']?.get?.tags).toEqual(['account-plan']);
    expect(doc.paths['/api/account-plan/subscription/downgrade']?.post?.security).toEqual([{ bearerAuth: [] }]);
  });

  it('a plan with an unknown account answers 404 (the plan row is gone)', async () => {
    const user = await newPlanUser(t);
    await t.db.db.delete(accountPlans).where(eq(accountPlans.accountId, user.accountId));
    const res = await call('GET', '/subscription', user.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
  });
});
