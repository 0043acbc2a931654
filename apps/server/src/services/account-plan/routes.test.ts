import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '@connect/db';
import { PLAN_TERMS, ZPlanInfo, ZProblem } from '@connect/shared';
import { TRIAL_CREDITS, trialCreditsReference } from '../../lib/trial-credits.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { backfillTrialCredits } from '../../repositories/trial-credits.ts';
import { buildApp } from '../../app.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { payPlan, planByCode } from './testing.ts';
import { createTestApp, signInAs, testConfig, type TestContext } from '../../../test/helpers.ts';

type Headers = { authorization: string };

describe('account-plan service: GET /user-plan', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const getPlan = (headers: Partial<Headers> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/account-plan/user-plan', headers });

  /** A signed-in user whose portal user (and account) exists, with the account id. */
  async function newUser() {
    const session = await signInAs(t);
    // The first authenticated request creates the portal user and its account.
    expect((await getPlan(session.headers)).statusCode).toBe(200);
    const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
    return { ...session, accountId: row!.accountId };
  }

  /**
   * A signed-in user whose account was created before trial credits were granted at creation: the
   * portal user exists before its first request (so that request creates nothing), with no ledger rows.
   */
  async function legacyUser() {
    const session = await signInAs(t);
    const [account] = await t.db.db.insert(accounts).values({}).returning({ id: accounts.id });
    await t.db.db
      .insert(users)
      .values({ id: session.sub, accountId: account!.id, email: session.email, role: 'INDIVIDUAL' });
    // Migration 0009 started the trial of every account that existed then.
    await new AccountPlansRepository(t.db.db, t.app.events).startTrial(account!.id);
    expect(ZPlanInfo.parse((await getPlan(session.headers)).json()).credits).toBe(0);
    return { ...session, accountId: account!.id };
  }

  const ledger = () => new LedgerRepository(t.db.db);
  const trialRows = async (accountId: string) =>
    (await ledger().entries(accountId, 'CREDIT'))
      .filter((entry) => entry.reference === trialCreditsReference(accountId))
      .map((entry) => ({ kind: entry.kind, amount: Number(entry.amount), reference: entry.reference }));
  const spend = (accountId: string, amount: bigint) =>
    ledger().consume(accountId, 'CREDIT', amount, { reason: 'Spent', reference: `test:${randomUUID()}` });

  const lifecycle = () =>
    new PlanLifecycle(t.db.db, t.app.events, { paygCreditLimit: t.app.deps.config.billing.paygCreditLimit });

  it('answers 401 problems without a token or with an invalid one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await getPlan(headers);
      expect(res.statusCode).toBe(401);
      expect(ZProblem.parse(res.json()).status).toBe(401);
    }
  });

  it('gives a new account the trial plan, active, with its trial credits and no renewal date', async () => {
    const { headers } = await newUser();
    const res = await getPlan(headers);
    expect(res.statusCode).toBe(200);
    expect(ZPlanInfo.parse(res.json())).toEqual({
      name: 'Trial',
      status: 'ACTIVE',
      credits: TRIAL_CREDITS,
      // The trial's end, 30 days after the account was made.
      renewsAt: expect.any(String),
    });
    const { renewsAt } = ZPlanInfo.parse(res.json());
    const days = (Date.parse(renewsAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(PLAN_TERMS.trialDays - 1);
    expect(days).toBeLessThanOrEqual(PLAN_TERMS.trialDays);
  });

  it("shows the trial credits on a new user's very first request, without Token Flow ever being opened", async () => {
    const session = await signInAs(t);
    // The first authenticated request of the user creates the account: this one.
    const res = await getPlan(session.headers);
    expect(res.statusCode).toBe(200);
    expect(ZPlanInfo.parse(res.json()).credits).toBe(TRIAL_CREDITS);
    const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
    // Granted through the ledger, once, under the account's unique trial reference.
    expect(await trialRows(row!.accountId)).toEqual([
      { kind: 'grant', amount: TRIAL_CREDITS, reference: trialCreditsReference(row!.accountId) },
    ]);
    // Opening Token Flow afterwards grants nothing more.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/tokenise/tokens', headers: session.headers, payload: {} }))
        .statusCode,
    ).toBe(200);
    expect(ZPlanInfo.parse((await getPlan(session.headers)).json()).credits).toBe(TRIAL_CREDITS);
    expect(await trialRows(row!.accountId)).toHaveLength(1);
  });

  it('grants the trial once when the same new user is created concurrently', async () => {
    const session = await signInAs(t);
    const answers = await Promise.all([1, 2, 3].map(() => getPlan(session.headers)));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
    expect(await trialRows(row!.accountId)).toHaveLength(1);
    expect(ZPlanInfo.parse((await getPlan(session.headers)).json()).credits).toBe(TRIAL_CREDITS);
  });

  it('backfills the accounts created before the grant moved to account creation, once', async () => {
    // An account from before the change that never opened Token Flow: no trial entry, 0 credits.
    const before = await legacyUser();
    // One that had its trial when it opened Token Flow, and has spent some of it since.
    const granted = await newUser();
    await spend(granted.accountId, 60n);
    // An account nobody belongs to (the loser of a creation race) gets nothing.
    const [orphan] = await t.db.db.insert(accounts).values({}).returning({ id: accounts.id });

    expect(await backfillTrialCredits(t.db.db)).toBe(1);
    expect(ZPlanInfo.parse((await getPlan(before.headers)).json()).credits).toBe(TRIAL_CREDITS);
    expect(await trialRows(before.accountId)).toHaveLength(1);
    expect(ZPlanInfo.parse((await getPlan(granted.headers)).json()).credits).toBe(40);
    expect(await trialRows(orphan!.id)).toEqual([]);

    // Every later start finds nothing to do.
    expect(await backfillTrialCredits(t.db.db)).toBe(0);
    expect(ZPlanInfo.parse((await getPlan(before.headers)).json()).credits).toBe(TRIAL_CREDITS);
  });

  it('runs the backfill when the service starts', async () => {
    const before = await legacyUser();
    // A second node starting on the same database.
    const node = await buildApp({ config: testConfig(), db: t.db, logger: false });
    await node.ready();
    await node.close();
    expect(ZPlanInfo.parse((await getPlan(before.headers)).json()).credits).toBe(TRIAL_CREDITS);
  });

  it("answers the caller's own account's plan, not another account's", async () => {
    const me = await newUser();
    const other = await newUser();
    const start = new Date('2026-03-01T12:00:00.000Z');
    const paid = await payPlan(t, me.accountId, 'annual-standard', start);
    await ledger().purchase(me.accountId, 'CREDIT', 1150n, { reason: 'Annual Subscription', reference: randomUUID() });
    await payPlan(t, other.accountId, 'payg-standard', start);
    await lifecycle().apply(other.accountId, { type: 'DISABLED_BY_STAFF' });
    await spend(other.accountId, 93n);

    expect(ZPlanInfo.parse((await getPlan(me.headers)).json())).toEqual({
      name: paid.plan.name,
      status: 'ACTIVE',
      credits: 1250,
      renewsAt: '2027-03-01T12:00:00.000Z',
    });
    expect(ZPlanInfo.parse((await getPlan(other.headers)).json())).toMatchObject({
      name: (await planByCode(t, 'payg-standard')).name,
      status: 'DISABLED',
      // A disabled pay-as-you-go plan has no credit limit: its floor is 0.
      credits: 7,
      renewsAt: '2026-04-01T12:00:00.000Z',
    });
  });

  it('shows the credits the account may still spend: a pay-as-you-go credit limit counts', async () => {
    const { headers, accountId } = await newUser();
    await ledger().setFloor(accountId, 'CREDIT', -500n);
    await spend(accountId, 130n);
    expect((await ledger().balance(accountId, 'CREDIT')).balance).toBe(BigInt(TRIAL_CREDITS - 130));
    expect(ZPlanInfo.parse((await getPlan(headers)).json()).credits).toBe(TRIAL_CREDITS - 130 + 500);
  });

  it('reflects a PENDING status while an order awaits its payment', async () => {
    const { headers, accountId } = await newUser();
    expect(ZPlanInfo.parse((await getPlan(headers)).json()).status).toBe('ACTIVE');
    const plan = await planByCode(t, 'annual-standard');
    await lifecycle().apply(accountId, { type: 'ORDER_PLACED', orderId: randomUUID(), plan });
    expect(ZPlanInfo.parse((await getPlan(headers)).json())).toMatchObject({ status: 'PENDING', name: 'Trial' });
  });

  it('is documented under the account-plan tag with a summary and the bearer token', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string; security?: unknown[] }>>;
    };
    const operation = doc.paths['/api/account-plan/user-plan']?.get;
    expect(operation?.tags).toEqual(['account-plan']);
    expect(operation?.summary).toBeTruthy();
    expect(operation?.security).toEqual([{ bearerAuth: [] }]);
    const declared = t.app.routeAccess.find((route) => route.url === '/api/account-plan/user-plan');
    expect(declared?.access).toBe('user');
  });
});
