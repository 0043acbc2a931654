import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '@connect/db';
import { ZAvailableFeatures, ZManagementAccountsResponse, type TManagementAccountsResponse } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';

type Session = Awaited<ReturnType<typeof signInAs>>;

describe('account management (issue 33 §1): the account list', () => {
  let t: TestContext;
  let sales: Session;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    sales = await signInAs(t, { role: 'QUANT_SALES' });
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
  });
  afterAll(() => t?.close());

  const call = (session: Session, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/connect${url}`, headers: session.headers });
  const list = async (query: string, session: Session = sales): Promise<TManagementAccountsResponse> => {
    const res = await call(session, `/management/accounts?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZManagementAccountsResponse.parse(res.json());
  };
  /** A customer account with its organisation and owner's names, as a sign-up and /user-details make it. */
  const customer = async (organisationName: string, firstName = 'Olive', lastName = 'Owner') => {
    const session = await signInAs(t);
    await t.app.inject({ method: 'GET', url: `/api/connect/user/${session.sub}`, headers: session.headers });
    await t.db.db.update(users).set({ firstName, lastName }).where(eq(users.id, session.sub));
    const [user] = await t.db.db.select().from(users).where(eq(users.id, session.sub));
    await t.db.db.update(accounts).set({ organisationName }).where(eq(accounts.id, user!.accountId));
    return { ...session, accountId: user!.accountId };
  };

  it('is refused to customers (403) and open to sales and administrators', async () => {
    const user = await signInAs(t);
    expect((await call(user, '/management/accounts')).statusCode).toBe(403);
    expect((await call(admin, '/management/accounts')).statusCode).toBe(200);
    const bad = await call(sales, '/management/accounts?status=GONE&size=3');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().invalidParams.length).toBeGreaterThan(0);
  });

  it('lists accounts with owner, plan and dates from the projection, newest first, with exact totals', async () => {
    const org = `Orchard ${Date.now()}`;
    const first = await customer(`${org} One`, 'Ada', 'Apple');
    const second = await customer(`${org} Two`, 'Bea', 'Berry');
    const found = await list(`searchTerm=${encodeURIComponent(org.toLowerCase())}`);
    expect(found.accountList.map((a) => a.accountId)).toEqual([second.accountId, first.accountId]);
    expect(found.accountList[1]).toMatchObject({
      organisationName: `${org} One`,
      status: 'ACTIVE',
      accountOwner: { email: first.email, name: 'Ada Apple' },
      currentPlan: expect.any(String),
      planStatus: 'ACTIVE',
    });
    expect(found.accountList[1]!.planExpiryDate).not.toBeNull();
    expect(found.accountList[1]!.lastLogin).not.toBeNull();
    const all = await list('');
    const [{ total }] = (
      (await t.db.db.execute(sql`select count(*)::int as total from accounts`)) as unknown as {
        rows: { total: number }[];
      }
    ).rows as [{ total: number }];
    expect(all.totalItems).toBe(total);
    expect(all.totalCapped).toBe(false);
  });

  it('sorts by organisation and plan, filters by status (repeated keys), and follows a removal', async () => {
    const org = `Quince ${Date.now()}`;
    const b = await customer(`${org} Bravo`);
    const a = await customer(`${org} alpha`);
    const asc = await list(`searchTerm=${encodeURIComponent(org)}&sort=organisationName:asc`);
    expect(asc.accountList.map((x) => x.accountId)).toEqual([a.accountId, b.accountId]);
    const desc = await list(`searchTerm=${encodeURIComponent(org)}&sort=organisationName:desc`);
    expect(desc.accountList.map((x) => x.accountId)).toEqual([b.accountId, a.accountId]);
    expect((await list(`searchTerm=${encodeURIComponent(org)}&sort=currentPlan:asc`)).accountList).toHaveLength(2);

    // Staff remove the account's only user: the account is REMOVED in the list.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/connect/management/user',
      headers: admin.headers,
      payload: { userId: a.sub },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const onlyRemoved = await list(`searchTerm=${encodeURIComponent(org)}&status=REMOVED`);
    expect(onlyRemoved.accountList.map((x) => [x.accountId, x.status])).toEqual([[a.accountId, 'REMOVED']]);
    const both = await list(`searchTerm=${encodeURIComponent(org)}&status=ACTIVE&status=REMOVED`);
    expect(both.accountList).toHaveLength(2);
    const activeTotal = (await list('status=ACTIVE')).totalItems;
    const removedTotal = (await list('status=REMOVED')).totalItems;
    expect(activeTotal + removedTotal).toBeLessThanOrEqual((await list('')).totalItems);
    expect(removedTotal).toBeGreaterThanOrEqual(1);
  });

  it('pages by keyset: the next page from a cursor continues where the first ended', async () => {
    const org = `Pear ${Date.now()}`;
    for (let i = 0; i < 7; i++) await customer(`${org} ${i}`);
    const base = `searchTerm=${encodeURIComponent(org)}&size=5&sort=organisationName:asc`;
    const first = await list(base);
    const next = await list(`${base}&page=1&cursor=${first.cursor}`);
    expect([...first.accountList, ...next.accountList].map((x) => x.organisationName)).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => `${org} ${i}`),
    );
    expect(next.hasNextPage).toBe(false);
  });

  it('answers an account’s features as its menu reads them, and 404 for an unknown account', async () => {
    const owner = await customer(`Features ${Date.now()}`);
    const res = await call(sales, `/management/feature/account/${owner.accountId}`);
    expect(res.statusCode, res.body).toBe(200);
    const staffView = ZAvailableFeatures.parse(res.json()).availableFeatures;
    const own = await t.app.inject({ method: 'GET', url: '/api/connect/available', headers: owner.headers });
    expect(staffView).toEqual(ZAvailableFeatures.parse(own.json()).availableFeatures);
    const unknown = await call(sales, '/management/feature/account/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    const user = await signInAs(t);
    expect((await call(user, `/management/feature/account/${owner.accountId}`)).statusCode).toBe(403);
  });

  describe('overrides (issue 33 §1): a switch or an allowance wins over the plan until cleared', () => {
    const put = (session: Session, accountId: string, key: string, payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/connect/management/accounts/${accountId}/overrides/${encodeURIComponent(key)}`,
        headers: session.headers,
        payload,
      });
    const clear = (session: Session, accountId: string, key: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/connect/management/accounts/${accountId}/overrides/${encodeURIComponent(key)}`,
        headers: session.headers,
      });
    const menuOf = async (owner: Session) =>
      ZAvailableFeatures.parse(
        (await t.app.inject({ method: 'GET', url: '/api/connect/available', headers: owner.headers })).json(),
      ).availableFeatures;

    it('switches a feature off and on for the customer’s menu, audited, and clears it back to the plan', async () => {
      const owner = await customer(`Switch ${Date.now()}`);
      expect((await menuOf(owner)).privateNetwork).toBeDefined();
      const off = await put(sales, owner.accountId, 'privateNetwork', { enabled: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ key: 'privateNetwork', value: { enabled: false }, setBy: sales.sub });
      expect((await menuOf(owner)).privateNetwork).toBeUndefined();
      const listed = await call(sales, `/management/accounts/${owner.accountId}/overrides`);
      expect(listed.json().overrides).toEqual([
        expect.objectContaining({ key: 'privateNetwork', value: { enabled: false } }),
      ]);
      expect((await put(sales, owner.accountId, 'mynetworks:v2', { enabled: false })).statusCode).toBe(200);
      expect((await menuOf(owner))['mynetworks:v2']).toBeUndefined();

      const cleared = await clear(sales, owner.accountId, 'privateNetwork');
      expect(cleared.statusCode).toBe(204);
      expect((await menuOf(owner)).privateNetwork).toBeDefined();
      const audit = await t.app.inject({
        method: 'GET',
        url: `/api/connect/management/audit-log?recordType=account&recordId=${owner.accountId}&size=10`,
        headers: admin.headers,
      });
      expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual([
        'FEATURE_OVERRIDE_CLEARED',
        'FEATURE_OVERRIDE_SET',
        'FEATURE_OVERRIDE_SET',
      ]);
      expect(audit.json().entries[2]).toMatchObject({
        before: { key: 'privateNetwork', override: null },
        after: { key: 'privateNetwork', override: { enabled: false } },
      });
      // Clearing what is not overridden changes and audits nothing.
      expect((await clear(sales, owner.accountId, 'reward')).statusCode).toBe(204);
    });

    it('overrides an allowance: the number in force changes and the account may create up to it', async () => {
      const owner = await customer(`Allow ${Date.now()}`);
      const before = (await call(sales, `/management/accounts/${owner.accountId}/overrides`)).json();
      expect(before.allowances.applications).toBeGreaterThan(0);
      const res = await put(sales, owner.accountId, 'applications', { amount: 12 });
      expect(res.statusCode, res.body).toBe(200);
      const after = (await call(sales, `/management/accounts/${owner.accountId}/overrides`)).json();
      expect(after.allowances.applications).toBe(12);
      expect((await menuOf(owner))['applications:create']).toMatchObject({ t: 12 });
    });

    it('refuses a value of the wrong kind, an unknown key, an unknown account, and customers', async () => {
      const owner = await customer(`Refuse ${Date.now()}`);
      for (const [key, payload] of [
        ['bridge', { amount: 3 }],
        ['applications', { enabled: true }],
        ['applications', { amount: -1 }],
        ['applications', { amount: 1.5 }],
        ['teleport', { enabled: true }],
      ] as const) {
        const res = await put(sales, owner.accountId, key, payload);
        expect(res.statusCode, `${key} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json().invalidParams.length).toBeGreaterThan(0);
      }
      const unknown = await put(sales, '00000000-0000-4000-8000-000000000000', 'bridge', { enabled: true });
      expect(unknown.statusCode).toBe(404);
      const user = await signInAs(t);
      expect((await put(user, owner.accountId, 'bridge', { enabled: true })).statusCode).toBe(403);
    });
  });

  describe('trial extension (issue 33 §1)', () => {
    const extend = (session: Session, accountId: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/account-plan/management/accounts/${accountId}/trial-extension`,
        headers: session.headers,
        payload,
      });

    it('moves the trial’s end through the plan’s transition, shows in the list, and is audited with the reason', async () => {
      const owner = await customer(`Trial ${Date.now()}`);
      const listed = async () =>
        (await list(`searchTerm=${encodeURIComponent(owner.email)}`)).accountList.find(
          (a) => a.accountId === owner.accountId,
        )!;
      const before = new Date((await listed()).planExpiryDate!).getTime();
      const res = await extend(sales, owner.accountId, { days: 14, reason: 'Evaluating the mainnet tier' });
      expect(res.statusCode, res.body).toBe(200);
      const after = new Date(res.json().trialEndsAt).getTime();
      expect(Math.round((after - before) / 86_400_000)).toBe(14);
      expect(res.json().planStatus).toBe('ACTIVE');
      expect(new Date((await listed()).planExpiryDate!).getTime()).toBe(after);
      const audit = await t.app.inject({
        method: 'GET',
        url: `/api/connect/management/audit-log?action=TRIAL_EXTENDED&recordId=${owner.accountId}`,
        headers: admin.headers,
      });
      expect(audit.json().entries[0]).toMatchObject({
        actorEmail: sales.email,
        after: { days: 14, reason: 'Evaluating the mainnet tier' },
      });
    });

    it('reopens an ended trial from today', async () => {
      const owner = await customer(`Ended ${Date.now()}`);
      await t.db.db.execute(
        sql`update account_plans set status = 'INACTIVE', status_reason = 'TRIAL_ENDED', trial_ends_at = now() - interval '3 days' where account_id = ${owner.accountId}`,
      );
      const res = await extend(sales, owner.accountId, { days: 7, reason: 'Missed the end' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().planStatus).toBe('ACTIVE');
      const days = (new Date(res.json().trialEndsAt).getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.9);
      expect(days).toBeLessThan(7.1);
    });

    it('refuses bad input, a plan that is not the trial, an unknown account and customers', async () => {
      const owner = await customer(`Bad ${Date.now()}`);
      const paid = await customer(`Paid ${Date.now()}`);
      await t.db.db.execute(
        sql`update account_plans set rate_plan_id = (select id from rate_plans where type <> 'TRIAL' limit 1) where account_id = ${paid.accountId}`,
      );
      const notTrial = await extend(sales, paid.accountId, { days: 3, reason: 'x' });
      expect(notTrial.statusCode).toBe(409);
      expect(notTrial.json()).toMatchObject({ code: 'TRIAL_NOT_EXTENDABLE' });
      for (const payload of [
        { days: 0, reason: 'x' },
        { days: 400, reason: 'x' },
        { days: 3, reason: '  ' },
        { days: 2.5, reason: 'x' },
      ]) {
        const res = await extend(sales, owner.accountId, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().invalidParams.length).toBeGreaterThan(0);
      }
      expect((await extend(sales, '00000000-0000-4000-8000-000000000000', { days: 3, reason: 'x' })).statusCode).toBe(
        404,
      );
      const user = await signInAs(t);
      expect((await extend(user, owner.accountId, { days: 3, reason: 'x' })).statusCode).toBe(403);
    });
  });
});
