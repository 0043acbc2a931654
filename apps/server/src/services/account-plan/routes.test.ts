import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '@connect/db';
import { ZPlanInfo, ZProblem } from '@connect/shared';
import { TRIAL_CREDITS, trialCreditsReference } from '../../lib/trial-credits.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { backfillTrialCredits } from '../../repositories/trial-credits.ts';
import { buildApp } from '../../app.ts';
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

  const setPlan = (accountId: string, values: Partial<typeof accounts.$inferInsert>) =>
    t.db.db.update(accounts).set(values).where(eq(accounts.id, accountId));

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
      renewsAt: null,
    });
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

  it("answers the caller's own account row, not another account's", async () => {
    const me = await newUser();
    const other = await newUser();
    const renewsAt = new Date('2027-03-01T12:00:00.000Z');
    await setPlan(me.accountId, { planName: 'Annual Subscription', planRenewsAt: renewsAt });
    await ledger().purchase(me.accountId, 'CREDIT', 1150n, { reason: 'Annual Subscription', reference: randomUUID() });
    await setPlan(other.accountId, { planName: 'Pay as you go', planStatus: 'DISABLED' });
    await spend(other.accountId, 93n);

    expect(ZPlanInfo.parse((await getPlan(me.headers)).json())).toEqual({
      name: 'Annual Subscription',
      status: 'ACTIVE',
      credits: 1250,
      renewsAt: renewsAt.toISOString(),
    });
    expect(ZPlanInfo.parse((await getPlan(other.headers)).json())).toEqual({
      name: 'Pay as you go',
      status: 'DISABLED',
      credits: 7,
      renewsAt: null,
    });
  });

  it('shows the credits the account may still spend: a pay-as-you-go credit limit counts', async () => {
    const { headers, accountId } = await newUser();
    await ledger().setFloor(accountId, 'CREDIT', -500n);
    await spend(accountId, 130n);
    expect((await ledger().balance(accountId, 'CREDIT')).balance).toBe(BigInt(TRIAL_CREDITS - 130));
    expect(ZPlanInfo.parse((await getPlan(headers)).json()).credits).toBe(TRIAL_CREDITS - 130 + 500);
  });

  it('reflects a PENDING status once the account row changes (an upgrade awaiting payment)', async () => {
    const { headers, accountId } = await newUser();
    expect(ZPlanInfo.parse((await getPlan(headers)).json()).status).toBe('ACTIVE');
    await setPlan(accountId, { planStatus: 'PENDING' });
    expect(ZPlanInfo.parse((await getPlan(headers)).json()).status).toBe('PENDING');
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
