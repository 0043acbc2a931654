import { createECDH } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, applications, applicationSecrets, gatewayUsageHourly, users } from '@connect/db';
import {
  APPLICATION_MESSAGES,
  KYC_MESSAGES,
  ZApplication,
  ZApplicationKeyIdsResponse,
  ZApplicationNetworksResponse,
  ZApplicationsPage,
  ZApplicationUsage,
  ZAvailableFeatures,
  ZCreateApplicationResponse,
  ZProblem,
  ZRotateSecretResponse,
} from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { PLENTY, putOnPlan, setAllowances } from '../../../test/plans.ts';
import { hashSecret } from '../../lib/secret-hash.ts';
import { activate, addNetwork, newAppUser, type TestUser } from './testing.ts';

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

describe('application manager', () => {
  let t: TestContext;
  let owner: TestUser;
  let stranger: TestUser;
  let testnetA: { id: string };
  let testnetB: { id: string };
  let mainnet: { id: string };
  let notActivated: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await newAppUser(t);
    stranger = await newAppUser(t);
    testnetA = await addNetwork(t, { name: 'Alpha testnet' });
    testnetB = await addNetwork(t, { name: 'Beta testnet' });
    mainnet = await addNetwork(t, { networkType: 'mainnet', name: 'Gamma mainnet' });
    notActivated = await addNetwork(t, { name: 'Delta testnet' });
    await activate(t, owner.accountId, testnetA.id, testnetB.id, mainnet.id);
    await activate(t, stranger.accountId, testnetA.id);
  });
  afterAll(() => t?.close());

  const call = (method: Method, url: string, user: TestUser | null, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/application-manager${url}`,
      ...(user ? { headers: user.headers } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  const form = (overrides: Record<string, unknown> = {}) => ({
    name: `App ${Math.random().toString(36).slice(2, 8)}`,
    callbackUrl: 'https://example.com/callback',
    applicationType: 'testnet',
    networkIds: [testnetA.id],
    testnetSigning: false,
    ...overrides,
  });

  async function create(user: TestUser, overrides: Record<string, unknown> = {}) {
    const res = await call('POST', '/create-application/', user, form(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return ZCreateApplicationResponse.parse(res.json());
  }

  /** The plan allows `total` applications and the account has used `used` of them. */
  async function setQuota(accountId: string, total: number, used: number) {
    await setAllowances(t.db.db, accountId, { applications: total });
    await t.db.db
      .update(accountFeatures)
      .set({ used })
      .where(and(eq(accountFeatures.accountId, accountId), eq(accountFeatures.feature, 'applications:create')));
  }

  async function used(accountId: string) {
    const [row] = await t.db.db
      .select({ used: accountFeatures.used })
      .from(accountFeatures)
      .where(and(eq(accountFeatures.accountId, accountId), eq(accountFeatures.feature, 'applications:create')));
    return row!.used;
  }

  it('refuses every endpoint without a session', async () => {
    for (const [method, url] of [
      ['GET', '/applications/'],
      ['POST', '/create-application/'],
      ['GET', '/networks'],
      ['POST', '/validate'],
    ] as const) {
      expect((await call(method, url, null, method === 'POST' ? {} : undefined)).statusCode).toBe(401);
    }
  });

  describe('POST /create-application/', () => {
    it('creates an application with credentials, a secp256k1 key and the secret stored only as a hash', async () => {
      await setQuota(owner.accountId, PLENTY, 0);
      const app = await create(owner, { name: 'Payments API', networkIds: [testnetA.id, testnetB.id] });
      expect(app.name).toBe('Payments API');
      expect(app.accountId).toBe(owner.accountId);
      expect(app.applicationType).toBe('testnet');
      expect(app.clientId).toMatch(/^[a-z0-9]{26}$/);
      expect(app.clientSecret.length).toBeGreaterThanOrEqual(43);
      expect(app.signingServiceName).toBe('quant-testnet-signing');
      expect(app.signingKeyId).toMatch(/^key-/);
      expect(app.networks.map((n) => n.id).sort()).toEqual([testnetA.id, testnetB.id].sort());
      expect(app.secrets).toEqual([
        expect.objectContaining({ status: 'ACTIVE', hint: app.clientSecret.slice(-4), expiresAt: null }),
      ]);
      // A real secp256k1 public key: uncompressed point that the curve accepts.
      expect(app.signingPublicKey).toMatch(/^0x04[0-9a-f]{128}$/);
      const point = Buffer.from(app.signingPublicKey.slice(2), 'hex');
      expect(() => createECDH('secp256k1').computeSecret(point)).toThrow(); // no private key yet
      const ecdh = createECDH('secp256k1');
      ecdh.generateKeys();
      expect(ecdh.computeSecret(point)).toHaveLength(32);

      const [row] = await t.db.db.select().from(applications).where(eq(applications.id, app.id));
      expect(row!.signingPrivateKey).toMatch(/^v1\./);
      const privateKey = t.app.deps.box.open(row!.signingPrivateKey);
      const derived = createECDH('secp256k1');
      derived.setPrivateKey(Buffer.from(privateKey.slice(2), 'hex'));
      expect(`0x${derived.getPublicKey('hex', 'uncompressed')}`).toBe(app.signingPublicKey);

      const secrets = await t.db.db
        .select()
        .from(applicationSecrets)
        .where(eq(applicationSecrets.applicationId, app.id));
      expect(secrets).toHaveLength(1);
      expect(secrets[0]!.secretHash).toBe(hashSecret(app.clientSecret));
      expect(JSON.stringify(secrets)).not.toContain(app.clientSecret);
      expect(await used(owner.accountId)).toBe(1);
    });

    it('answers the spec’s messages for invalid forms', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: '' }, 'name', APPLICATION_MESSAGES.nameRequired],
        [{ name: 'x'.repeat(50) }, 'name', APPLICATION_MESSAGES.nameTooLong],
        [{ name: 'Bad <name>!' }, 'name', APPLICATION_MESSAGES.nameSpecialCharacters],
        [{ callbackUrl: '' }, 'callbackUrl', APPLICATION_MESSAGES.callbackRequired],
        [{ callbackUrl: 'http://example.com/cb' }, 'callbackUrl', APPLICATION_MESSAGES.callbackInvalid],
        [{ callbackUrl: 'not a url' }, 'callbackUrl', APPLICATION_MESSAGES.callbackInvalid],
        [{ networkIds: [] }, 'networkIds', APPLICATION_MESSAGES.networksRequired],
        [{ applicationType: 'devnet' }, 'applicationType', APPLICATION_MESSAGES.typeRequired],
      ];
      for (const [overrides, name, reason] of cases) {
        const res = await call('POST', '/create-application/', owner, form(overrides));
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
        const problem = ZProblem.parse(res.json());
        expect(problem.invalidParams).toContainEqual({ name, reason });
      }
      // 49 characters is still fine.
      await create(owner, { name: 'y'.repeat(49) });
    });

    it('refuses networks that are not activated for the account or not of the application’s type', async () => {
      for (const networkIds of [[notActivated.id], [mainnet.id], [testnetA.id, mainnet.id]]) {
        const res = await call('POST', '/create-application/', owner, form({ networkIds }));
        expect(res.statusCode).toBe(400);
        expect(ZProblem.parse(res.json()).detail).toBe(APPLICATION_MESSAGES.networkUnavailable);
      }
      // The stranger has not activated testnet B.
      const res = await call('POST', '/create-application/', stranger, form({ networkIds: [testnetB.id] }));
      expect(res.statusCode).toBe(400);
    });

    it('refuses a name the account already uses (any case), but another account may use it', async () => {
      await create(owner, { name: 'Unique name' });
      const res = await call('POST', '/create-application/', owner, form({ name: 'UNIQUE NAME' }));
      expect(res.statusCode).toBe(409);
      expect(ZProblem.parse(res.json()).invalidParams).toEqual([
        { name: 'name', reason: APPLICATION_MESSAGES.nameExistsOnCreate },
      ]);
      await create(stranger, { name: 'Unique name' });
    });

    it('needs a verified identity for a mainnet application', async () => {
      const res = await call(
        'POST',
        '/create-application/',
        owner,
        form({ applicationType: 'mainnet', networkIds: [mainnet.id] }),
      );
      expect(res.statusCode).toBe(409);
      expect(ZProblem.parse(res.json()).detail).toBe(KYC_MESSAGES.mainnetRequiresVerification);
      await t.db.db.update(users).set({ kycStatus: 'VERIFIED' }).where(eq(users.id, owner.sub));
      const app = await create(owner, { applicationType: 'mainnet', networkIds: [mainnet.id] });
      expect(app.signingServiceName).toBe('quant-mainnet-signing');
      await t.db.db.update(users).set({ kycStatus: 'UNVERIFIED' }).where(eq(users.id, owner.sub));
    });

    it('counts against applications:create and refuses once the allowance is used up', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, testnetA.id);
      await setQuota(user.accountId, 2, 0);
      await create(user);
      await create(user);
      const res = await call('POST', '/create-application/', user, form());
      expect(res.statusCode).toBe(409);
      expect(ZProblem.parse(res.json()).detail).toBe(APPLICATION_MESSAGES.quotaReached);
      expect(await used(user.accountId)).toBe(2);
      // Nothing half-made stays behind.
      const rows = await t.db.db.select().from(applications).where(eq(applications.accountId, user.accountId));
      expect(rows).toHaveLength(2);
      // Concurrent creations cannot overshoot the allowance.
      await setQuota(user.accountId, 3, 2);
      const results = await Promise.all([1, 2, 3].map(() => call('POST', '/create-application/', user, form())));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      expect(await used(user.accountId)).toBe(3);
    });
  });

  describe('the plan’s allowance (issue 14)', () => {
    const page = async (user: TestUser) => ZApplicationsPage.parse((await call('GET', '/applications/', user)).json());

    it('the trial allows 3; an upgrade to annual-standard allows 10 at once, in the list and the counters', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, testnetA.id);
      for (let i = 0; i < 3; i += 1) await create(user);
      const refused = await call('POST', '/create-application/', user, form());
      expect(refused.statusCode).toBe(409);
      expect(ZProblem.parse(refused.json()).code).toBe('APPLICATION_QUOTA_REACHED');
      expect((await page(user)).quota).toEqual({ used: 3, total: 3 });

      await putOnPlan(t.db.db, user.accountId, 'annual-standard');
      await create(user);
      expect((await page(user)).quota).toEqual({ used: 4, total: 10 });
      const features = await t.app.inject({ method: 'GET', url: '/api/connect/available', headers: user.headers });
      expect(ZAvailableFeatures.parse(features.json()).availableFeatures['applications:create']).toEqual({
        t: 10,
        a: 4,
      });
    });

    it('refuses a new application with PLAN_INACTIVE while the plan is not in service; the others keep working', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, testnetA.id);
      const kept = await create(user);
      await putOnPlan(t.db.db, user.accountId, 'annual-standard', {
        status: 'INACTIVE',
        statusReason: 'RENEWAL_FAILED',
      });
      const res = await call('POST', '/create-application/', user, form());
      expect(res.statusCode).toBe(403);
      expect(ZProblem.parse(res.json()).code).toBe('PLAN_INACTIVE');
      expect(await used(user.accountId)).toBe(1);
      expect((await call('GET', `/application/${kept.id}`, user)).statusCode).toBe(200);
      // PENDING behind an active plan (an upgrade waiting for its payment) keeps the plan in service.
      await putOnPlan(t.db.db, user.accountId, 'annual-standard', {
        status: 'PENDING',
        statusBeforePending: 'ACTIVE',
        statusReason: 'AWAITING_PAYMENT',
      });
      await create(user);
    });

    it('after a downgrade below its usage, the account keeps its applications but creates none until below the allowance', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, testnetA.id);
      const apps = [await create(user), await create(user), await create(user)];
      await setAllowances(t.db.db, user.accountId, { applications: 2 });

      const listed = await page(user);
      expect(listed.totalElements).toBe(3);
      expect(listed.quota).toEqual({ used: 3, total: 2 });
      for (const app of apps) expect((await call('GET', `/application/${app.id}`, user)).statusCode).toBe(200);
      const edited = await call('PUT', '/application', user, {
        id: apps[0]!.id,
        name: 'Still editable',
        callbackUrl: 'https://example.com/cb',
        networkIds: [testnetA.id],
        testnetSigning: false,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const fourth = await call('POST', '/create-application/', user, form());
      expect(ZProblem.parse(fourth.json()).code).toBe('APPLICATION_QUOTA_REACHED');

      // One deleted: 2 of 2, still no room.
      expect((await call('DELETE', `/application/${apps[2]!.id}`, user)).statusCode).toBe(204);
      const third = await call('POST', '/create-application/', user, form());
      expect(third.statusCode).toBe(409);
      expect(ZProblem.parse(third.json()).code).toBe('APPLICATION_QUOTA_REACHED');
      // Another deleted: 1 of 2, one may be created again.
      expect((await call('DELETE', `/application/${apps[1]!.id}`, user)).statusCode).toBe(204);
      await create(user);
      expect((await page(user)).quota).toEqual({ used: 2, total: 2 });
    });
  });

  describe('GET /applications/', () => {
    it('lists only the caller’s applications with search, filters, paging and the allowance', async () => {
      const user = await newAppUser(t);
      await activate(t, user.accountId, testnetA.id, testnetB.id);
      await setQuota(user.accountId, 20, 0);
      await create(user, { name: 'Orders service', networkIds: [testnetA.id] });
      await create(user, { name: 'Order_book 100', networkIds: [testnetB.id] });
      await create(user, { name: 'Billing', networkIds: [testnetA.id, testnetB.id] });

      const all = ZApplicationsPage.parse((await call('GET', '/applications/', user)).json());
      expect(all.totalElements).toBe(3);
      expect(all.quota).toEqual({ used: 3, total: 20 });
      expect(all.content.every((a) => a.accountId === user.accountId)).toBe(true);
      expect(all.content[0]!.name).toBe('Billing'); // newest first

      const search = ZApplicationsPage.parse((await call('GET', '/applications/?search=order', user)).json());
      expect(search.content.map((a) => a.name).sort()).toEqual(['Order_book 100', 'Orders service']);
      // Wildcards typed in the search box are literal ('s_s' would match "Orders service" as a pattern).
      for (const text of ['%25', 's_s']) {
        const literal = ZApplicationsPage.parse((await call('GET', `/applications/?search=${text}`, user)).json());
        expect(literal.content, text).toEqual([]);
      }
      const underscore = ZApplicationsPage.parse((await call('GET', '/applications/?search=r_b', user)).json());
      expect(underscore.content.map((a) => a.name)).toEqual(['Order_book 100']);

      const byNetwork = ZApplicationsPage.parse(
        (await call('GET', `/applications/?networkId=${testnetB.id}`, user)).json(),
      );
      expect(byNetwork.content.map((a) => a.name).sort()).toEqual(['Billing', 'Order_book 100']);
      const mainnets = ZApplicationsPage.parse(
        (await call('GET', '/applications/?applicationType=mainnet', user)).json(),
      );
      expect(mainnets.totalElements).toBe(0);

      const page = ZApplicationsPage.parse((await call('GET', '/applications/?page=1&size=5', user)).json());
      expect(page).toMatchObject({ number: 1, size: 5, totalElements: 3, totalPages: 1, content: [] });

      for (const bad of ['size=7', 'networkId=nope', 'applicationType=devnet']) {
        const res = await call('GET', `/applications/?${bad}`, user);
        expect(res.statusCode, bad).toBe(400);
        expect(ZProblem.parse(res.json()).invalidParams?.length).toBeGreaterThan(0);
      }
    });
  });

  describe('one application', () => {
    it('GET /application/{id} answers the caller’s application and 404 for another account’s', async () => {
      const app = await create(owner);
      const mine = ZApplication.parse((await call('GET', `/application/${app.id}`, owner)).json());
      expect(mine).toMatchObject({ id: app.id, clientId: app.clientId });
      expect(JSON.stringify(mine)).not.toContain(app.clientSecret);
      expect((await call('GET', `/application/${app.id}`, stranger)).statusCode).toBe(404);
      expect((await call('GET', `/application/${crypto.randomUUID()}`, owner)).statusCode).toBe(404);
      expect((await call('GET', '/application/not-a-uuid', owner)).statusCode).toBe(400);
    });

    it('PUT /application edits name, callback, networks and signing; the type is fixed', async () => {
      const app = await create(owner, { name: 'Before edit' });
      const res = await call('PUT', '/application', owner, {
        id: app.id,
        name: 'After edit',
        callbackUrl: 'https://example.org/new',
        networkIds: [testnetB.id],
        testnetSigning: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      const edited = ZApplication.parse(res.json());
      expect(edited).toMatchObject({
        name: 'After edit',
        callbackUrl: 'https://example.org/new',
        testnetSigning: true,
      });
      expect(edited.networks.map((n) => n.id)).toEqual([testnetB.id]);
      expect(edited.clientId).toBe(app.clientId);

      const base = { id: app.id, name: 'After edit', callbackUrl: 'https://example.org/new', testnetSigning: true };
      const typeChange = await call('PUT', '/application', owner, {
        ...base,
        networkIds: [testnetB.id],
        applicationType: 'mainnet',
      });
      expect(typeChange.statusCode).toBe(400);
      expect(ZProblem.parse(typeChange.json()).invalidParams).toEqual([
        { name: 'applicationType', reason: APPLICATION_MESSAGES.typeFixed },
      ]);
      const wrongNetwork = await call('PUT', '/application', owner, { ...base, networkIds: [mainnet.id] });
      expect(wrongNetwork.statusCode).toBe(400);
      const none = await call('PUT', '/application', owner, { ...base, networkIds: [] });
      expect(ZProblem.parse(none.json()).invalidParams).toContainEqual({
        name: 'networkIds',
        reason: APPLICATION_MESSAGES.networksRequired,
      });

      const other = await create(owner, { name: 'Taken elsewhere' });
      const clash = await call('PUT', '/application', owner, {
        ...base,
        name: 'taken ELSEWHERE',
        networkIds: [testnetA.id],
      });
      expect(clash.statusCode).toBe(409);
      expect(ZProblem.parse(clash.json()).invalidParams).toEqual([
        { name: 'name', reason: APPLICATION_MESSAGES.nameExists },
      ]);
      // Keeping its own name is fine.
      const same = await call('PUT', '/application', owner, {
        ...base,
        id: other.id,
        name: 'Taken elsewhere',
        networkIds: [testnetA.id],
      });
      expect(same.statusCode).toBe(200);

      const foreign = await call('PUT', '/application', stranger, { ...base, networkIds: [testnetA.id] });
      expect(foreign.statusCode).toBe(404);
      const unchanged = ZApplication.parse((await call('GET', `/application/${app.id}`, owner)).json());
      expect(unchanged.name).toBe('After edit');
    });

    it('DELETE /application/{id} removes it, gives the allowance back, and 404s for another account', async () => {
      const app = await create(owner);
      const before = await used(owner.accountId);
      expect((await call('DELETE', `/application/${app.id}`, stranger)).statusCode).toBe(404);
      const res = await call('DELETE', `/application/${app.id}`, owner);
      expect(res.statusCode).toBe(204);
      expect(await used(owner.accountId)).toBe(before - 1);
      expect((await call('GET', `/application/${app.id}`, owner)).statusCode).toBe(404);
      expect((await call('DELETE', `/application/${app.id}`, owner)).statusCode).toBe(404);
      expect(await used(owner.accountId)).toBe(before - 1);
    });
  });

  it('POST /validate checks the name’s format and uniqueness in the account', async () => {
    const app = await create(owner, { name: 'Validated name' });
    expect((await call('POST', '/validate', owner, { name: 'Fresh name' })).json()).toEqual({ valid: true });
    const taken = await call('POST', '/validate', owner, { name: 'validated name' });
    expect(taken.statusCode).toBe(409);
    expect(ZProblem.parse(taken.json()).invalidParams).toEqual([
      { name: 'name', reason: APPLICATION_MESSAGES.nameExists },
    ]);
    // Editing the application itself keeps its name.
    expect((await call('POST', '/validate', owner, { name: 'Validated name', id: app.id })).statusCode).toBe(200);
    // Another account's names do not count.
    expect((await call('POST', '/validate', stranger, { name: 'Validated name' })).statusCode).toBe(200);
    const tooLong = await call('POST', '/validate', owner, { name: 'z'.repeat(50) });
    expect(ZProblem.parse(tooLong.json()).invalidParams).toEqual([
      { name: 'name', reason: APPLICATION_MESSAGES.nameTooLong },
    ]);
    const empty = await call('POST', '/validate', owner, {});
    expect(ZProblem.parse(empty.json()).invalidParams?.[0]?.reason).toBe(APPLICATION_MESSAGES.nameRequired);
  });

  it('GET /applications/key-ids lists the account’s signing keys only', async () => {
    const app = await create(owner);
    const keys = ZApplicationKeyIdsResponse.parse((await call('GET', '/applications/key-ids', owner)).json()).keyIds;
    expect(keys).toContainEqual(
      expect.objectContaining({ applicationId: app.id, keyId: app.signingKeyId, publicKey: app.signingPublicKey }),
    );
    const theirs = ZApplicationKeyIdsResponse.parse(
      (await call('GET', '/applications/key-ids', stranger)).json(),
    ).keyIds;
    expect(theirs.some((k) => k.applicationId === app.id)).toBe(false);
  });

  it('GET /networks and /networks/{id} list the activated networks an application can use', async () => {
    const all = ZApplicationNetworksResponse.parse((await call('GET', '/networks', owner)).json()).networks;
    expect(all.map((n) => n.id).sort()).toEqual([testnetA.id, testnetB.id, mainnet.id].sort());
    const testnets = ZApplicationNetworksResponse.parse(
      (await call('GET', '/networks?applicationType=testnet', owner)).json(),
    );
    expect(testnets.networks.map((n) => n.id).sort()).toEqual([testnetA.id, testnetB.id].sort());
    const app = await create(owner);
    const forApp = ZApplicationNetworksResponse.parse((await call('GET', `/networks/${app.id}`, owner)).json());
    expect(forApp.networks.map((n) => n.id).sort()).toEqual([testnetA.id, testnetB.id].sort());
    expect((await call('GET', `/networks/${app.id}`, stranger)).statusCode).toBe(404);
    const theirs = ZApplicationNetworksResponse.parse((await call('GET', '/networks', stranger)).json());
    expect(theirs.networks.map((n) => n.id)).toEqual([testnetA.id]);
  });

  it('lists each network with the rate limit the gateway enforces for the account (its plan’s), not the network’s', async () => {
    const user = await newAppUser(t);
    await putOnPlan(t.db.db, user.accountId, 'annual-standard'); // 50 requests a second per network
    await activate(t, user.accountId, testnetA.id); // the network's own column says 25
    const listed = ZApplicationNetworksResponse.parse((await call('GET', '/networks', user)).json()).networks;
    expect(listed.map((n) => [n.id, n.rateLimit])).toEqual([[testnetA.id, 50]]);
    const app = await create(user);
    expect(app.networks.map((n) => n.rateLimit)).toEqual([50]);
    const forApp = ZApplicationNetworksResponse.parse((await call('GET', `/networks/${app.id}`, user)).json());
    expect(forApp.networks.map((n) => n.rateLimit)).toEqual([50]);
    const viewed = ZApplication.parse((await call('GET', `/application/${app.id}`, user)).json());
    expect(viewed.networks.map((n) => n.rateLimit)).toEqual([50]);
  });

  describe('secret rotation', () => {
    it('keeps the old secret for the grace period, then lists it as expired', async () => {
      const app = await create(owner);
      const res = await call('POST', `/application/${app.id}/rotate-secret`, owner, { gracePeriodMinutes: 60 });
      expect(res.statusCode, res.body).toBe(200);
      const rotated = ZRotateSecretResponse.parse(res.json());
      expect(rotated.clientSecret).not.toBe(app.clientSecret);
      const [current, old] = rotated.application.secrets;
      expect(current).toMatchObject({ status: 'ACTIVE', expiresAt: null, hint: rotated.clientSecret.slice(-4) });
      expect(old).toMatchObject({ status: 'EXPIRING', id: app.secrets[0]!.id });
      const expiresIn = Date.parse(old!.expiresAt!) - Date.now();
      expect(expiresIn).toBeGreaterThan(59 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(60 * 60_000);

      await t.db.db
        .update(applicationSecrets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(applicationSecrets.id, old!.id));
      const later = ZApplication.parse((await call('GET', `/application/${app.id}`, owner)).json());
      expect(later.secrets.map((s) => s.status)).toEqual(['ACTIVE', 'EXPIRED']);
    });

    it('revokes at once with no grace period, and revokes one secret on request', async () => {
      const app = await create(owner);
      const rotated = ZRotateSecretResponse.parse(
        (await call('POST', `/application/${app.id}/rotate-secret`, owner, { gracePeriodMinutes: 0 })).json(),
      );
      expect(rotated.application.secrets.map((s) => s.status)).toEqual(['ACTIVE', 'REVOKED']);

      const again = ZRotateSecretResponse.parse(
        (await call('POST', `/application/${app.id}/rotate-secret`, owner, { gracePeriodMinutes: 1440 })).json(),
      );
      const expiring = again.application.secrets.find((s) => s.status === 'EXPIRING')!;
      expect((await call('DELETE', `/application/${app.id}/secrets/${expiring.id}`, stranger)).statusCode).toBe(404);
      const revoked = ZApplication.parse(
        (await call('DELETE', `/application/${app.id}/secrets/${expiring.id}`, owner)).json(),
      );
      expect(revoked.secrets.find((s) => s.id === expiring.id)!.status).toBe('REVOKED');
      expect((await call('DELETE', `/application/${app.id}/secrets/${crypto.randomUUID()}`, owner)).statusCode).toBe(
        404,
      );
    });

    it('refuses another account’s application and bad grace periods', async () => {
      const app = await create(owner);
      expect(
        (await call('POST', `/application/${app.id}/rotate-secret`, stranger, { gracePeriodMinutes: 60 })).statusCode,
      ).toBe(404);
      for (const gracePeriodMinutes of [-1, 30 * 1440 + 1, 'soon']) {
        const res = await call('POST', `/application/${app.id}/rotate-secret`, owner, { gracePeriodMinutes });
        expect(res.statusCode).toBe(400);
      }
    });
  });

  it('GET /application/{id}/usage answers zero-filled daily counts of the caller’s application', async () => {
    const app = await create(owner, { networkIds: [testnetA.id, testnetB.id] });
    const today = new Date().toISOString().slice(0, 10);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    // Hourly counters per method, summed per UTC day (the first and last hours of a day included).
    const counter = (networkId: string, day: string, time: string, method: string, calls: number) => ({
      applicationId: app.id,
      networkId,
      method,
      hour: new Date(`${day}T${time}:00.000Z`),
      accountId: owner.accountId,
      calls,
      microCredits: calls * 100,
    });
    await t.db.db
      .insert(gatewayUsageHourly)
      .values([
        counter(testnetA.id, today, '00:00', 'eth_call', 3),
        counter(testnetA.id, today, '00:00', 'eth_chainId', 2),
        counter(testnetB.id, today, '00:00', 'eth_call', 2),
        counter(testnetA.id, twoDaysAgo, '23:00', 'eth_call', 7),
      ]);
    const usage = ZApplicationUsage.parse((await call('GET', `/application/${app.id}/usage?days=14`, owner)).json());
    expect(usage.days).toHaveLength(14);
    expect(usage.to).toBe(today);
    expect(usage.days.at(-1)).toEqual({ day: today, requests: 7 });
    expect(usage.days.at(-3)).toEqual({ day: twoDaysAgo, requests: 7 });
    expect(usage.total).toBe(14);
    expect(usage.networks[0]).toMatchObject({ networkId: testnetA.id, requests: 12 });
    expect((await call('GET', `/application/${app.id}/usage`, stranger)).statusCode).toBe(404);
    expect((await call('GET', `/application/${app.id}/usage?days=0`, owner)).statusCode).toBe(400);
  });
});
