import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, applications, auditLog, users } from '@connect/db';
import {
  APPLICATION_MESSAGES,
  APPLICATION_ROLES,
  ZApplicationNetworksResponse,
  ZApplicationRolesResponse,
  ZApplicationsPage,
  ZManagementApplicationsResponse,
  ZManagementCreateApplicationResponse,
  ZManagementNetworkCatalogue,
  ZProblem,
  type TManagementApplicationsResponse,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { setAllowances } from '../../../test/plans.ts';
import { activate, addNetwork, createApplication, liftPlanLimits, newAppUser, type TestUser } from './testing.ts';

type Session = Awaited<ReturnType<typeof signInAs>>;
type Method = 'GET' | 'POST';

describe('application management (issue 33 §2)', () => {
  let t: TestContext;
  let admin: Session;
  let sales: Session;
  let customer: TestUser;
  let testnet: { id: string; name: string };
  let otherTestnet: { id: string; name: string };
  let mainnet: { id: string };
  const tag = Date.now().toString(36);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    sales = await signInAs(t, { role: 'QUANT_SALES' });
    customer = await newAppUser(t);
    testnet = await addNetwork(t, { name: `Kappa testnet ${tag}` });
    otherTestnet = await addNetwork(t, { name: `Lambda testnet ${tag}` });
    mainnet = await addNetwork(t, { networkType: 'mainnet', name: `Mu mainnet ${tag}` });
    await activate(t, customer.accountId, testnet.id, mainnet.id);
  });
  afterAll(() => t?.close());

  const call = (method: Method, url: string, session: { headers: object } | null, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/application-manager${url}`,
      ...(session ? { headers: session.headers as Record<string, string> } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const list = async (query: string): Promise<TManagementApplicationsResponse> => {
    const res = await call('GET', `/management/applications/?${query}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return ZManagementApplicationsResponse.parse(res.json());
  };
  const form = (overrides: Record<string, unknown> = {}) => ({
    email: customer.email,
    roleName: 'INTEGRATION',
    name: `Staff app ${Math.random().toString(36).slice(2, 8)}`,
    callbackUrl: 'https://example.com/callback',
    applicationType: 'testnet',
    networkIds: [testnet.id],
    ...overrides,
  });
  const problemOf = (body: string) => ZProblem.parse(JSON.parse(body));

  it('is for administrators: 401 without a session, 403 for sales and customers on every call', async () => {
    const calls: [Method, string, unknown?][] = [
      ['GET', '/management/applications/'],
      ['GET', '/management/application-roles/'],
      ['GET', '/management/networks'],
      ['GET', `/management/networks/${customer.accountId}/testnet`],
      ['POST', '/management/applications', form()],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(method, url, null, body)).statusCode, url).toBe(401);
      expect((await call(method, url, sales, body)).statusCode, url).toBe(403);
      expect((await call(method, url, customer, body)).statusCode, url).toBe(403);
    }
    expect((await call('GET', '/management/applications/', admin)).statusCode).toBe(200);
    // Nothing was created by the refused calls.
    const [{ n }] = (
      (await t.db.db.execute(
        sql`select count(*)::int as n from applications where account_id = ${customer.accountId}`,
      )) as unknown as { rows: [{ n: number }] }
    ).rows;
    expect(n).toBe(0);
  });

  it('answers the role names and the account’s networks of a type', async () => {
    const roles = ZApplicationRolesResponse.parse((await call('GET', '/management/application-roles/', admin)).json());
    expect(roles.roles.map((role) => role.roleName)).toEqual([...APPLICATION_ROLES]);
    const catalogue = ZManagementNetworkCatalogue.parse((await call('GET', '/management/networks', admin)).json());
    expect(catalogue.networks).toEqual(
      expect.arrayContaining([
        { id: testnet.id, name: testnet.name, networkType: 'testnet' },
        { id: otherTestnet.id, name: otherTestnet.name, networkType: 'testnet' },
      ]),
    );
    const testnets = await call('GET', `/management/networks/${customer.accountId}/testnet`, admin);
    expect(testnets.statusCode, testnets.body).toBe(200);
    const own = await call('GET', '/networks?applicationType=testnet', customer);
    // As the user's own registration lists them: the activated testnet, not the other one.
    expect(ZApplicationNetworksResponse.parse(testnets.json())).toEqual(ZApplicationNetworksResponse.parse(own.json()));
    expect(ZApplicationNetworksResponse.parse(testnets.json()).networks.map((n) => n.id)).toEqual([testnet.id]);
    const mainnets = ZApplicationNetworksResponse.parse(
      (await call('GET', `/management/networks/${customer.accountId}/mainnet`, admin)).json(),
    );
    expect(mainnets.networks.map((n) => n.id)).toEqual([mainnet.id]);
    const unknown = await call('GET', '/management/networks/00000000-0000-4000-8000-000000000000/testnet', admin);
    expect(unknown.statusCode).toBe(404);
    expect(problemOf(unknown.body).code).toBe('ACCOUNT_NOT_FOUND');
    const badType = await call('GET', `/management/networks/${customer.accountId}/devnet`, admin);
    expect(badType.statusCode).toBe(400);
    expect(problemOf(badType.body).invalidParams?.length).toBeGreaterThan(0);
  });

  it('creates an application for the user: the secret once, audited, in their list, mailed to them', async () => {
    const body = form({ name: `Onboarding ${tag}` });
    const res = await call('POST', '/management/applications', admin, body);
    expect(res.statusCode, res.body).toBe(201);
    const created = ZManagementCreateApplicationResponse.parse(res.json());
    expect(created).toMatchObject({
      name: body.name,
      accountId: customer.accountId,
      roleName: 'INTEGRATION',
      owner: { userId: customer.sub, email: customer.email },
    });
    expect(created.clientSecret.length).toBeGreaterThan(20);
    expect(created.networks.map((n) => n.id)).toEqual([testnet.id]);

    // The user's own list has it; the row belongs to them, with the chosen role.
    const own = ZApplicationsPage.parse((await call('GET', '/applications/', customer)).json());
    expect(own.content.map((a) => a.id)).toContain(created.id);
    const [row] = await t.db.db.select().from(applications).where(eq(applications.id, created.id));
    expect(row).toMatchObject({ createdBy: customer.sub, roleName: 'INTEGRATION' });

    // Audited in the creation's transaction, by the administrator.
    const [entry] = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'APPLICATION_CREATED'), eq(auditLog.recordId, created.id)));
    expect(entry).toMatchObject({
      actorId: admin.sub,
      actorEmail: admin.email,
      outcome: 'DONE',
      recordType: 'application',
      after: expect.objectContaining({ email: customer.email, roleName: 'INTEGRATION', clientId: created.clientId }),
    });

    // The user is told by email (the dev mailbox), without the secret; a second drain mails nothing more.
    await t.app.events.drain();
    await t.app.events.drain();
    const outbox = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(customer.email)}`,
    });
    expect(outbox.statusCode, outbox.body).toBe(200);
    const mails = (outbox.json() as { messages: { subject: string; text: string }[] }).messages.filter((m) =>
      m.subject.includes(body.name),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`An application was created for you: ${body.name}`);
    expect(mails[0]!.text).toContain(created.clientId);
    expect(mails[0]!.text).not.toContain(created.clientSecret);

    // The staff list shows it with its owner, role, networks and the account's status.
    const found = await list(`searchTerm=${encodeURIComponent(`onboarding ${tag}`)}`);
    expect(found.applicationList).toEqual([
      expect.objectContaining({
        applicationId: created.id,
        clientId: created.clientId,
        roleName: 'INTEGRATION',
        status: 'ACTIVE',
        owner: expect.objectContaining({ userId: customer.sub, email: customer.email }),
        networks: [{ id: testnet.id, name: testnet.name, networkType: 'testnet' }],
      }),
    ]);
  });

  it('refuses what the user’s own creation refuses, with the same problems', async () => {
    const unknown = await call('POST', '/management/applications', admin, form({ email: 'nobody-here@example.com' }));
    expect(unknown.statusCode).toBe(404);
    expect(problemOf(unknown.body)).toMatchObject({ code: 'USER_NOT_FOUND', invalidParams: [{ name: 'email' }] });
    const malformed = await call('POST', '/management/applications', admin, form({ email: 'not-an-email' }));
    expect(malformed.statusCode).toBe(400);
    expect(problemOf(malformed.body).invalidParams?.[0]?.name).toBe('email');
    const noRole = await call('POST', '/management/applications', admin, form({ roleName: undefined }));
    expect(noRole.statusCode).toBe(400);
    expect(problemOf(noRole.body).invalidParams?.[0]?.name).toBe('roleName');
    const noNetwork = await call('POST', '/management/applications', admin, form({ networkIds: [] }));
    expect(noNetwork.statusCode).toBe(400);
    expect(problemOf(noNetwork.body).invalidParams?.[0]?.reason).toBe(
      'Please select at least one of the available networks!',
    );
    // A network the account did not activate.
    const unavailable = await call('POST', '/management/applications', admin, form({ networkIds: [otherTestnet.id] }));
    expect(problemOf(unavailable.body).code).toBe('APPLICATION_NETWORK_UNAVAILABLE');
    // A name the account already uses.
    const name = `Twice ${tag}`;
    expect((await call('POST', '/management/applications', admin, form({ name }))).statusCode).toBe(201);
    const twice = await call('POST', '/management/applications', admin, form({ name }));
    expect(problemOf(twice.body).code).toBe('APPLICATION_EXISTS');
    expect(problemOf(twice.body).detail).toBe(APPLICATION_MESSAGES.nameExistsOnCreate);
  });

  it('applies the account’s applications allowance as when the user creates one', async () => {
    const user = await newAppUser(t);
    await activate(t, user.accountId, testnet.id);
    await setAllowances(t.db.db, user.accountId, { applications: 1 });
    await createApplication(t, user, [testnet.id]);
    const own = await call('POST', '/create-application/', user, {
      name: `Own ${tag}`,
      callbackUrl: 'https://example.com/cb',
      applicationType: 'testnet',
      networkIds: [testnet.id],
    });
    const staff = await call('POST', '/management/applications', admin, form({ email: user.email }));
    expect(staff.statusCode).toBe(own.statusCode);
    expect(staff.statusCode).toBe(409);
    expect(problemOf(staff.body).code).toBe('APPLICATION_QUOTA_REACHED');
    expect(problemOf(staff.body).code).toBe(problemOf(own.body).code);
    // Mainnet needs the user's verified identity, as their own registration does.
    const mainnetApp = await call(
      'POST',
      '/management/applications',
      admin,
      form({ applicationType: 'mainnet', networkIds: [mainnet.id] }),
    );
    expect(mainnetApp.statusCode).toBe(409);
    // A plan out of service is the account's state, not the staff member's: 409, never the user's 403.
    const ended = await newAppUser(t);
    await activate(t, ended.accountId, testnet.id);
    await t.db.db.execute(
      sql`update account_plans set status = 'INACTIVE', status_reason = 'TRIAL_ENDED' where account_id = ${ended.accountId}`,
    );
    const inactive = await call('POST', '/management/applications', admin, form({ email: ended.email }));
    expect([inactive.statusCode, problemOf(inactive.body).code]).toEqual([409, 'ACCOUNT_PLAN_NOT_IN_SERVICE']);
    // Nothing audited for the refusals.
    const entries = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'APPLICATION_CREATED'), sql`${auditLog.after}->>'email' = ${user.email}`));
    expect(entries).toHaveLength(0);
  });

  it('lists every account’s applications: search, network and status filters, sorts, keyset pages', async () => {
    const owners = await Promise.all([newAppUser(t), newAppUser(t)]);
    for (const owner of owners) {
      await activate(t, owner.accountId, testnet.id, otherTestnet.id);
      await liftPlanLimits(t, owner.accountId);
    }
    const prefix = `Zq${tag}`;
    const made: { id: string; clientId: string; owner: TestUser }[] = [];
    for (const [i, owner] of [
      owners[0]!,
      owners[1]!,
      owners[0]!,
      owners[1]!,
      owners[0]!,
      owners[1]!,
      owners[0]!,
    ].entries()) {
      const app = await createApplication(t, owner, i % 2 ? [otherTestnet.id] : [testnet.id], `${prefix} ${i}`);
      made.push({ id: app.id, clientId: app.clientId, owner });
    }
    const term = encodeURIComponent(prefix.toLowerCase());
    // Newest first by default; by name ascending and descending.
    const newest = await list(`searchTerm=${term}&size=10`);
    expect(newest.applicationList.map((a) => a.applicationId)).toEqual(made.map((m) => m.id).reverse());
    expect(newest.totalItems).toBe(7);
    const byName = await list(`searchTerm=${term}&size=10&sort=name:asc`);
    expect(byName.applicationList.map((a) => a.name)).toEqual(made.map((_, i) => `${prefix} ${i}`));
    // Keyset: the next page from the cursor continues where the first ended.
    const first = await list(`searchTerm=${term}&size=5&sort=name:asc`);
    const next = await list(`searchTerm=${term}&size=5&sort=name:asc&page=1&cursor=${first.cursor}`);
    expect([...first.applicationList, ...next.applicationList].map((a) => a.name)).toEqual(
      made.map((_, i) => `${prefix} ${i}`),
    );
    expect(next.hasNextPage).toBe(false);

    // Search by client id and by the owner's email.
    const byClient = await list(`searchTerm=${made[3]!.clientId}`);
    expect(byClient.applicationList.map((a) => a.applicationId)).toEqual([made[3]!.id]);
    const byOwner = await list(`searchTerm=${encodeURIComponent(owners[1]!.email)}&sort=ownerEmail:asc`);
    expect(byOwner.applicationList.map((a) => a.applicationId).sort()).toEqual(
      made
        .filter((m) => m.owner === owners[1])
        .map((m) => m.id)
        .sort(),
    );

    // The network filter, with its exact total (no search: from the kept counts).
    const onOther = await list(`networkId=${otherTestnet.id}&size=100`);
    const expectedOther = made.filter((_, i) => i % 2).map((m) => m.id);
    expect(onOther.applicationList.map((a) => a.applicationId)).toEqual(expect.arrayContaining(expectedOther));
    expect(onOther.applicationList.every((a) => a.networks.some((n) => n.id === otherTestnet.id))).toBe(true);
    expect(onOther.totalCapped).toBe(false);
    expect(onOther.totalItems).toBe(onOther.applicationList.length);
    const searchedOnOther = await list(`searchTerm=${term}&networkId=${otherTestnet.id}&sort=createdAt:asc`);
    expect(searchedOnOther.applicationList.map((a) => a.applicationId)).toEqual(expectedOther);

    // The account closed (its only user removed by staff): its applications are REMOVED.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/connect/management/user',
      headers: admin.headers,
      payload: { userId: owners[1]!.sub },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const onlyRemoved = await list(`searchTerm=${term}&status=REMOVED&size=10`);
    expect(onlyRemoved.applicationList.map((a) => a.applicationId).sort()).toEqual(expectedOther.sort());
    const removedOnOther = await list(`networkId=${otherTestnet.id}&status=REMOVED&size=100`);
    expect(removedOnOther.totalItems).toBe(3);
    const active = await list(`searchTerm=${term}&status=ACTIVE`);
    expect(active.totalItems).toBe(4);

    // The exact totals: every status's count adds up to the applications there are.
    const all = await list('');
    const [{ n }] = (
      (await t.db.db.execute(sql`select count(*)::int as n from applications`)) as unknown as { rows: [{ n: number }] }
    ).rows;
    expect(all.totalItems).toBe(n);
  });

  it('follows renames of the application, its owner and organisation, and a deletion', async () => {
    const owner = await newAppUser(t);
    await activate(t, owner.accountId, testnet.id);
    const app = await createApplication(t, owner, [testnet.id], `Rename me ${tag}`);
    await t.db.db.update(users).set({ firstName: 'Renata', lastName: 'Owen' }).where(eq(users.id, owner.sub));
    await t.db.db
      .update(accounts)
      .set({ organisationName: `Org ${tag}` })
      .where(eq(accounts.id, owner.accountId));
    const renamed = await call('GET', `/management/applications/?searchTerm=${encodeURIComponent(owner.email)}`, admin);
    expect(ZManagementApplicationsResponse.parse(renamed.json()).applicationList).toEqual([
      expect.objectContaining({
        applicationId: app.id,
        organisationName: `Org ${tag}`,
        owner: expect.objectContaining({ name: 'Renata Owen' }),
      }),
    ]);
    const before = (await list(`networkId=${testnet.id}`)).totalItems;
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/application-manager/application/${app.id}`,
      headers: owner.headers,
    });
    expect(gone.statusCode).toBe(204);
    expect((await list(`searchTerm=${encodeURIComponent(owner.email)}`)).applicationList).toEqual([]);
    expect((await list(`networkId=${testnet.id}`)).totalItems).toBe(before - 1);
  });
});
