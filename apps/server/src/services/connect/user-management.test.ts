import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLog, idpUsers, mailOutbox, users } from '@connect/db';
import {
  ZAuditLogResponse,
  ZManagementUser,
  ZManagementUsersResponse,
  type TAuditEntry,
  type TManagementUsersResponse,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { findPortalUser } from '../../repositories/portal-users.ts';
import { issueAuthentication } from '../identity/sessions.ts';
import { UserManagementService } from './user-management-service.ts';

type Session = Awaited<ReturnType<typeof signInAs>>;

describe('user management (issue 32 §3) and the audit log (§1)', () => {
  let t: TestContext;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN', email: 'first-admin@staff.test' });
  });
  afterAll(() => t?.close());

  const call = (session: Session | null, method: string, url: string, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url: `/api/connect${url}`,
      ...(session ? { headers: session.headers } : {}),
      ...(payload ? { payload } : {}),
    });
  const list = async (query: string, session: Session = admin): Promise<TManagementUsersResponse> => {
    const res = await call(session, 'GET', `/management/users?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZManagementUsersResponse.parse(res.json());
  };
  const invite = (body: object) => call(admin, 'POST', '/management/user/invite', body);
  const auditOf = async (query: string): Promise<TAuditEntry[]> => {
    const res = await call(admin, 'GET', `/management/audit-log?size=100&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZAuditLogResponse.parse(res.json()).entries;
  };
  /** A customer with a profile, as a sign-up and /user-details make one. */
  const customer = async (firstName: string, lastName: string, organisationName: string) => {
    const session = await signInAs(t);
    await call(session, 'GET', `/user/${session.sub}`);
    await t.db.db.update(users).set({ firstName, lastName }).where(eq(users.id, session.sub));
    const [user] = await t.db.db.select().from(users).where(eq(users.id, session.sub));
    await t.db.db.update(accounts).set({ organisationName }).where(eq(accounts.id, user!.accountId));
    return session;
  };
  /** The invited user's first sign-in (a session for their pool user). */
  const firstSignIn = async (sub: string, email: string) => {
    const { deps } = t.app;
    const result = await issueAuthentication(deps.db, deps.keys!, deps.pool, {
      sub,
      username: email,
      email,
      emailVerified: true,
      groups: [],
    });
    return { headers: { authorization: `Bearer ${result.AccessToken}` } } as Session;
  };

  describe('staff access', () => {
    it('refuses every /management/ route to an ordinary user (403 or 404, never data) and to no session (401)', async () => {
      const user = await signInAs(t);
      const routes = t.app.routeAccess.filter((route) => route.url.includes('/management/'));
      expect(routes.length).toBeGreaterThanOrEqual(12);
      for (const route of routes) {
        const url = route.url.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000');
        const asUser = await t.app.inject({ method: route.method as 'GET', url, headers: user.headers, payload: {} });
        expect([403, 404], `${route.method} ${route.url}: ${asUser.body}`).toContain(asUser.statusCode);
        const signedOut = await t.app.inject({ method: route.method as 'GET', url, payload: {} });
        expect(signedOut.statusCode, `${route.method} ${route.url}`).toBe(401);
      }
    });

    it('refuses sales on the admin-only calls (spec §6)', async () => {
      const sales = await signInAs(t, { role: 'QUANT_SALES' });
      expect((await call(sales, 'GET', '/management/users')).statusCode).toBe(403);
      expect((await call(sales, 'GET', '/management/audit-log')).statusCode).toBe(403);
      const invite = await call(sales, 'POST', '/management/user/invite', {
        email: 'x@example.com',
        firstName: 'X',
        lastName: 'Y',
        role: 'QUANT_SALES',
      });
      expect(invite.statusCode).toBe(403);
      expect((await call(sales, 'POST', '/management/reset-mfa', { userId: admin.sub })).statusCode).toBe(403);
      expect((await call(sales, 'DELETE', '/management/user', { userId: admin.sub })).statusCode).toBe(403);
    });

    it('sends a staff user without MFA to set it up (409 STAFF_MFA_REQUIRED), and lets them in once it is set', async () => {
      const staff = await signInAs(t, { role: 'QUANT_ADMIN', withoutMfa: true });
      const refused = await call(staff, 'GET', '/management/users');
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'STAFF_MFA_REQUIRED' });
      // Their own user and the MFA set-up stay open to them.
      expect((await call(staff, 'GET', `/user/${staff.sub}`)).statusCode).toBe(200);
      await t.db.db
        .update(idpUsers)
        .set({ totpVerified: true, mfaEnabled: true, mfaPreferred: true })
        .where(eq(idpUsers.sub, staff.sub));
      expect((await call(staff, 'GET', '/management/users')).statusCode).toBe(200);
      const [row] = await t.db.db.select().from(users).where(eq(users.id, staff.sub));
      expect(row).toMatchObject({ mfaSetup: true, mfaConfirm: true });
    });
  });

  describe('GET /management/users', () => {
    it('answers 400 with invalidParams for a bad query', async () => {
      for (const query of [
        'size=7',
        'sort=password:asc',
        'sort=email:up',
        'status=ACTIVATED',
        'page=x',
        'cursor=%25%25',
      ]) {
        const res = await call(admin, 'GET', `/management/users?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().invalidParams?.length, query).toBeGreaterThan(0);
      }
    });

    it('pages by keyset with exact tab counts, clamps a negative page and answers an empty page past the end', async () => {
      const org = `Paging ${Date.now()}`;
      for (let i = 0; i < 7; i++) await customer(`Pia${i}`, `Pager`, org);
      const base = `searchTerm=${encodeURIComponent(org)}&size=5&sort=firstName:asc`;
      const first = await list(`${base}&page=-3`);
      expect(first.page).toBe(0);
      expect(first.totalItems).toBe(7);
      expect(first.totalPages).toBe(2);
      expect(first.totalCapped).toBe(false);
      expect(first.hasNextPage).toBe(true);
      expect(first.userList.map((u) => u.firstName)).toEqual(['Pia0', 'Pia1', 'Pia2', 'Pia3', 'Pia4']);
      const second = await list(`${base}&page=1&cursor=${first.cursor}`);
      expect(second.userList.map((u) => u.firstName)).toEqual(['Pia5', 'Pia6']);
      expect(second.hasNextPage).toBe(false);
      const back = await list(`${base}&page=0&cursor=${second.cursor}`);
      expect(back.userList.map((u) => u.firstName)).toEqual(['Pia0', 'Pia1', 'Pia2', 'Pia3', 'Pia4']);
      const past = await list(`${base}&page=9`);
      expect(past.userList).toEqual([]);
      // Tab counts are exact and match the tables.
      const counts = Object.fromEntries(first.statusesList.map((s) => [s.userStatus, s.statusCount]));
      const [{ active }] = (
        (await t.db.db.execute(sql`select count(*)::int as active from users where status = 'ACTIVE'`)) as unknown as {
          rows: { active: number }[];
        }
      ).rows as [{ active: number }];
      expect(counts.ACTIVE).toBe(active);
      expect(Object.keys(counts).sort()).toEqual(['ACTIVE', 'PENDING', 'REMOVED']);
    });

    it('sorts through the cycle and searches by 3+ character infix and 1–2 character prefix', async () => {
      const org = `Zq${Date.now()}`;
      await customer('Ada', 'Lovelace', org);
      await customer('Grace', 'Hopper', org);
      await customer('Alan', 'Turing', org);
      const asc = await list(`searchTerm=${org}&sort=lastName:asc`);
      expect(asc.userList.map((u) => u.lastName)).toEqual(['Hopper', 'Lovelace', 'Turing']);
      const desc = await list(`searchTerm=${org}&sort=lastName:desc`);
      expect(desc.userList.map((u) => u.lastName)).toEqual(['Turing', 'Lovelace', 'Hopper']);
      // No sort: the default, statusChangedAt descending (the newest first).
      const none = await list(`searchTerm=${org}&sort=`);
      expect(none.userList.map((u) => u.lastName)).toEqual(['Turing', 'Hopper', 'Lovelace']);
      // Infix of a last name, case-insensitive, trimmed.
      expect((await list(`searchTerm=${encodeURIComponent('  OVELA ')}`)).userList.map((u) => u.lastName)).toContain(
        'Lovelace',
      );
      // A 2-character prefix of any field: "tu" finds Turing, not Lovelace.
      const prefix = await list(`searchTerm=tu&size=100`);
      expect(prefix.userList.some((u) => u.lastName === 'Turing')).toBe(true);
      expect(prefix.userList.some((u) => u.lastName === 'Lovelace')).toBe(false);
      // LIKE's wildcards are text: "%" matches nothing.
      expect((await list('searchTerm=%25%25%25')).userList).toEqual([]);
    });
  });

  describe('invite, edit, reset MFA, remove', () => {
    it('invites a staff user: a PENDING user, an invitation email, an intent and its outcome; the first sign-in makes them ACTIVE', async () => {
      const res = await invite({
        email: 'New.Staff@Staff.test',
        firstName: 'Nina',
        lastName: 'Staff',
        role: 'QUANT_SALES',
      });
      expect(res.statusCode, res.body).toBe(201);
      const invited = ZManagementUser.parse(res.json());
      expect(invited).toMatchObject({
        email: 'new.staff@staff.test',
        status: 'PENDING',
        role: 'QUANT_SALES',
        addedBy: admin.email,
        mfaStatus: 'FIRST_LOGIN',
      });
      const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'new.staff@staff.test'));
      expect(mails.map((m) => m.kind)).toContain('INVITATION');
      const entries = await auditOf('action=USER_INVITED&recordId=new.staff%40staff.test');
      expect(entries.map((e) => e.outcome)).toEqual(['SUCCEEDED', 'INTENT']);
      expect(entries[0]!.intentId).toBe(entries[1]!.id);
      expect(entries[0]).toMatchObject({ actorEmail: admin.email, actorId: admin.sub });
      expect(entries[0]!.requestId).toBeTruthy();
      const pending = await list('status=PENDING&searchTerm=new.staff');
      expect(pending.userList.map((u) => u.userId)).toEqual([invited.userId]);

      const session = await firstSignIn(invited.userId, invited.email);
      expect((await call(session, 'GET', `/user/${invited.userId}`)).statusCode).toBe(200);
      const active = await list('status=ACTIVE&searchTerm=new.staff');
      expect(active.userList.map((u) => u.userId)).toEqual([invited.userId]);

      const again = await invite({
        email: 'new.staff@staff.test',
        firstName: 'Nina',
        lastName: 'Staff',
        role: 'QUANT_SALES',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'USER_EXISTS' });
    });

    it('invites a customer into a new account named as given, and asks for the organisation', async () => {
      const missing = await invite({
        email: 'cust@example.com',
        firstName: 'Cu',
        lastName: 'St',
        role: 'SME',
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().invalidParams[0].name).toBe('organisationName');
      const res = await invite({
        email: 'cust@example.com',
        firstName: 'Cu',
        lastName: 'St',
        role: 'SME',
        organisationName: 'Cust Ltd',
      });
      expect(res.statusCode, res.body).toBe(201);
      const invited = ZManagementUser.parse(res.json());
      expect(invited.organisationName).toBe('Cust Ltd');
      const [adminRow] = await t.db.db.select().from(users).where(eq(users.id, admin.sub));
      expect(invited.accountId).not.toBe(adminRow!.accountId);
    });

    it('records a failed invitation at the identity pool as the intent’s FAILED outcome, with no portal user', async () => {
      const service = new UserManagementService(
        t.app.deps.db,
        {
          ...t.app.deps.identityAdmin,
          createUser: () => Promise.reject(new Error('the pool is down')),
        },
        t.app.deps.events,
      );
      const actor = (await findPortalUser(t.app.deps.dbh, admin.sub))!;
      await expect(
        service.invite(
          { ...actor, requestId: 'req-1' },
          {
            email: 'down@staff.test',
            firstName: 'D',
            lastName: 'Own',
            role: 'QUANT_ADMIN',
            organisationName: undefined,
          },
        ),
      ).rejects.toMatchObject({ code: 'IDENTITY_POOL_FAILED' });
      const entries = await auditOf('recordId=down%40staff.test');
      expect(entries.map((e) => [e.outcome, e.detail])).toEqual([
        ['FAILED', 'the pool is down'],
        ['INTENT', null],
      ]);
      expect(await t.db.db.select().from(users).where(eq(users.email, 'down@staff.test'))).toEqual([]);
    });

    it('edits names, role and organisation with the values before and after; keeps staff and customer roles apart', async () => {
      const session = await customer('Ed', 'Itor', 'Before Ltd');
      const edit = (payload: object) => call(admin, 'PUT', '/management/user', { userId: session.sub, ...payload });
      const ok = await edit({ firstName: 'Edna', lastName: 'Itor', role: 'SME', organisationName: 'After Ltd' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ firstName: 'Edna', role: 'SME', organisationName: 'After Ltd' });
      const [entry] = await auditOf(`action=USER_UPDATED&recordId=${session.sub}`);
      expect(entry).toMatchObject({
        outcome: 'DONE',
        before: { firstName: 'Ed', role: 'INDIVIDUAL', organisationName: 'Before Ltd' },
        after: { firstName: 'Edna', role: 'SME', organisationName: 'After Ltd' },
      });
      // The identity pool holds the new names too.
      const [pool] = await t.db.db
        .select({ attributes: idpUsers.attributes })
        .from(idpUsers)
        .where(eq(idpUsers.sub, session.sub));
      expect(pool?.attributes).toMatchObject({ given_name: 'Edna', family_name: 'Itor' });
      // The projection follows the account's new name.
      expect((await list('searchTerm=after%20ltd')).userList.map((u) => u.userId)).toContain(session.sub);
      const promoted = await edit({ firstName: 'Edna', lastName: 'Itor', role: 'QUANT_ADMIN' });
      expect(promoted.statusCode).toBe(409);
      expect(promoted.json()).toMatchObject({ code: 'STAFF_ROLE_FOR_CUSTOMER' });
      // A refused edit that renamed gives the pool its names back.
      const renamedAndPromoted = await edit({ firstName: 'Eddie', lastName: 'Itor', role: 'QUANT_ADMIN' });
      expect(renamedAndPromoted.statusCode).toBe(409);
      const [kept] = await t.db.db
        .select({ attributes: idpUsers.attributes })
        .from(idpUsers)
        .where(eq(idpUsers.sub, session.sub));
      expect(kept?.attributes).toMatchObject({ given_name: 'Edna', family_name: 'Itor' });
      const self = await call(admin, 'PUT', '/management/user', {
        userId: admin.sub,
        firstName: 'A',
        lastName: 'B',
        role: 'QUANT_SALES',
      });
      expect(self.json()).toMatchObject({ code: 'CANNOT_CHANGE_SELF' });
    });

    it('resets MFA at the identity pool, audited as an intent and its outcome', async () => {
      const staff = await signInAs(t, { role: 'QUANT_ADMIN' });
      expect((await call(staff, 'GET', '/management/users')).statusCode).toBe(200);
      const res = await call(admin, 'POST', '/management/reset-mfa', { userId: staff.sub });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().mfaStatus).toBe('DISABLED');
      const [pool] = await t.db.db.select().from(idpUsers).where(eq(idpUsers.sub, staff.sub));
      expect(pool).toMatchObject({ totpVerified: false, mfaPreferred: false });
      const entries = await auditOf(`action=USER_MFA_RESET&recordId=${staff.sub}`);
      expect(entries.map((e) => e.outcome)).toEqual(['SUCCEEDED', 'INTENT']);
      // A staff user without MFA is sent to set it up again.
      expect((await call(staff, 'GET', '/management/users')).json()).toMatchObject({ code: 'STAFF_MFA_REQUIRED' });
    });

    it('removes a user: REMOVED by whom, sessions end at once, the last user closes the account; never oneself or the last admin', async () => {
      const session = await customer('Rem', 'Oved', 'Gone Ltd');
      const before = await list('status=REMOVED');
      const res = await call(admin, 'DELETE', '/management/user', { userId: session.sub });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'REMOVED', removedBy: admin.email });
      expect((await call(session, 'GET', `/user/${session.sub}`)).statusCode).toBe(401);
      const [row] = await t.db.db.select().from(users).where(eq(users.id, session.sub));
      const [account] = await t.db.db.select().from(accounts).where(eq(accounts.id, row!.accountId));
      expect(account!.status).toBe('REMOVED');
      const after = await list('status=REMOVED');
      const count = (r: TManagementUsersResponse) =>
        r.statusesList.find((s) => s.userStatus === 'REMOVED')!.statusCount;
      expect(count(after)).toBe(count(before) + 1);
      expect(after.userList[0]).toMatchObject({ userId: session.sub, removedBy: admin.email });
      const [entry] = await auditOf(`action=USER_REMOVED&recordId=${session.sub}`);
      expect(entry).toMatchObject({ before: { status: 'ACTIVE' }, after: { status: 'REMOVED', accountClosed: true } });
      expect((await call(admin, 'DELETE', '/management/user', { userId: session.sub })).json()).toMatchObject({
        code: 'USER_ALREADY_REMOVED',
      });
      expect((await call(admin, 'DELETE', '/management/user', { userId: admin.sub })).json()).toMatchObject({
        code: 'CANNOT_CHANGE_SELF',
      });

      // Restored: ACTIVE again, the account reopened, audited; a second restore is refused.
      const restored = await call(admin, 'POST', '/management/user/restore', { userId: session.sub });
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json()).toMatchObject({ status: 'ACTIVE', removedBy: null });
      const [reopened] = await t.db.db.select().from(accounts).where(eq(accounts.id, row!.accountId));
      expect(reopened!.status).toBe('ACTIVE');
      const [restoredEntry] = await auditOf(`action=USER_RESTORED&recordId=${session.sub}`);
      expect(restoredEntry).toMatchObject({ after: { status: 'ACTIVE', accountReopened: true } });
      expect((await call(admin, 'POST', '/management/user/restore', { userId: session.sub })).json()).toMatchObject({
        code: 'USER_NOT_REMOVED',
      });
    });

    it('keeps the last administrator: removing every other one leaves the last refused', async () => {
      const [{ admins }] = (
        (await t.db.db.execute(
          sql`select count(*)::int as admins from users where role = 'QUANT_ADMIN' and status <> 'REMOVED'`,
        )) as unknown as { rows: { admins: number }[] }
      ).rows as [{ admins: number }];
      expect(admins).toBeGreaterThan(1);
      // A second administrator removes the first; the first can then not remove the second.
      const second = await signInAs(t, { role: 'QUANT_ADMIN' });
      await call(second, 'GET', `/user/${second.sub}`);
      const others = await t.db.db.execute(
        sql`select id from users where role = 'QUANT_ADMIN' and status <> 'REMOVED' and id not in (${admin.sub}, ${second.sub})`,
      );
      for (const other of (others as unknown as { rows: { id: string }[] }).rows) {
        expect((await call(admin, 'DELETE', '/management/user', { userId: other.id })).statusCode).toBe(200);
      }
      expect((await call(admin, 'DELETE', '/management/user', { userId: second.sub })).statusCode).toBe(200);
      const third = await signInAs(t, { role: 'QUANT_ADMIN' });
      await call(third, 'GET', `/user/${third.sub}`);
      // `admin` and `third` are left; `third` removes `admin`, and then nobody can remove `third`.
      expect((await call(third, 'DELETE', '/management/user', { userId: admin.sub })).statusCode).toBe(200);
      const last = await call(third, 'PUT', '/management/user', {
        userId: third.sub,
        firstName: 'L',
        lastName: 'A',
        role: 'QUANT_SALES',
      });
      expect(last.json().code).toMatch(/CANNOT_CHANGE_SELF|LAST_ADMIN/);
      admin = third;
    });
  });

  describe('the 90-day purge and the audit log', () => {
    it('purges users still pending after 90 days: deleted from the pool, REMOVED by system, audited', async () => {
      const res = await invite({
        email: 'stale@staff.test',
        firstName: 'St',
        lastName: 'Ale',
        role: 'QUANT_SALES',
      });
      const invited = ZManagementUser.parse(res.json());
      const service = new UserManagementService(t.app.deps.db, t.app.deps.identityAdmin, t.app.deps.events);
      expect(await service.purgePending(new Date(Date.now() + 89 * 86_400_000))).toBe(0);
      expect(await service.purgePending(new Date(Date.now() + 91 * 86_400_000))).toBeGreaterThanOrEqual(1);
      const [row] = await t.db.db.select().from(users).where(eq(users.id, invited.userId));
      expect(row).toMatchObject({ status: 'REMOVED', removedBy: 'system' });
      expect(await t.app.deps.identityAdmin.getUser('stale@staff.test')).toBeNull();
      const entries = await auditOf(`action=USER_PURGED&recordId=${invited.userId}`);
      expect(entries.map((e) => [e.outcome, e.actorEmail])).toEqual([
        ['SUCCEEDED', 'system'],
        ['INTENT', 'system'],
      ]);
      // Gone from the identity pool: not restorable; the address can be invited again.
      expect((await call(admin, 'POST', '/management/user/restore', { userId: invited.userId })).json()).toMatchObject({
        code: 'USER_NOT_RESTORABLE',
      });
      const again = await invite({
        email: 'stale@staff.test',
        firstName: 'St',
        lastName: 'Ale',
        role: 'QUANT_SALES',
      });
      expect(again.statusCode, again.body).toBe(201);
    });

    it('filters the log, exports it as formula-safe CSV, and refuses to edit or delete an entry', async () => {
      await invite({
        email: 'formula@staff.test',
        firstName: '=HYPERLINK("x")',
        lastName: 'F',
        role: 'QUANT_SALES',
      });
      const byActor = await auditOf(`actor=${encodeURIComponent(admin.email.slice(0, 6))}`);
      expect(byActor.length).toBeGreaterThan(0);
      expect(byActor.every((e) => e.actorEmail === admin.email)).toBe(true);
      const csv = await call(admin, 'GET', '/management/audit-log/export?action=USER_INVITED');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toMatch(/attachment; filename="audit-log-/);
      expect(csv.body).toContain('formula@staff.test');
      expect(csv.body).not.toMatch(/,"?=HYPERLINK/);
      expect(
        csv.body
          .split('\r\n')
          .slice(1, -1)
          .every((line) => line.includes('USER_INVITED')),
      ).toBe(true);
      const refusal = (attempt: Promise<unknown>) =>
        attempt.then(
          () => 'allowed',
          (error: Error & { cause?: Error }) => String(error.cause?.message ?? error.message),
        );
      expect(await refusal(t.db.db.update(auditLog).set({ actorEmail: 'someone-else' }))).toMatch(/append-only/);
      expect(await refusal(t.db.db.delete(auditLog))).toMatch(/append-only/);
      expect(await refusal(t.db.db.execute(sql`truncate audit_log`))).toMatch(/append-only/);
    });

    it('audits acknowledging a staff alert once', async () => {
      const id = '00000000-0000-4000-8000-0000000000a1';
      await t.db.db.execute(sql`insert into staff_alerts (id, code, message) values (${id}, 'TEST_ALERT', 'Look')`);
      expect((await call(admin, 'POST', `/management/alerts/${id}/acknowledge`)).statusCode).toBe(200);
      expect((await call(admin, 'POST', `/management/alerts/${id}/acknowledge`)).statusCode).toBe(200);
      const entries = await auditOf(`recordType=staff_alert&recordId=${id}`);
      expect(entries.map((e) => e.action)).toEqual(['STAFF_ALERT_ACKNOWLEDGED']);
    });
  });
});
