import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '@connect/db';
import { ZPlanInfo, ZProblem } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';

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

  const setPlan = (accountId: string, values: Partial<typeof accounts.$inferInsert>) =>
    t.db.db.update(accounts).set(values).where(eq(accounts.id, accountId));

  it('answers 401 problems without a token or with an invalid one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const res = await getPlan(headers);
      expect(res.statusCode).toBe(401);
      expect(ZProblem.parse(res.json()).status).toBe(401);
    }
  });

  it('gives a new account the trial plan, active, with no credits and no renewal date', async () => {
    const { headers } = await newUser();
    const res = await getPlan(headers);
    expect(res.statusCode).toBe(200);
    expect(ZPlanInfo.parse(res.json())).toEqual({ name: 'Trial', status: 'ACTIVE', credits: 0, renewsAt: null });
  });

  it("answers the caller's own account row, not another account's", async () => {
    const me = await newUser();
    const other = await newUser();
    const renewsAt = new Date('2027-03-01T12:00:00.000Z');
    await setPlan(me.accountId, { planName: 'Annual Subscription', credits: 1250, planRenewsAt: renewsAt });
    await setPlan(other.accountId, { planName: 'Pay as you go', planStatus: 'DISABLED', credits: 7 });

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
