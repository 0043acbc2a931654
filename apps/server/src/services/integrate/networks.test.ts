import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, accountNetworks, networks, users } from '@connect/db';
import type { FeatureName, KycStatus, TCatalogueResponse, TUserNetwork } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan, setAllowances, type Allowances } from '../../../test/plans.ts';
import { OutboxRepository } from '../../events/repository.ts';

/** The catalogue, activation, My networks and the environment manager (spec §2.3–§2.5, §5, §7, §9). */
describe('integrate: networks', () => {
  let t: TestContext;
  const ids = { ethTest: '', polyTest: '', ethMain: '', polyMain: '' };

  beforeAll(async () => {
    t = await createTestApp();
    const suffix = Date.now();
    const rows = await t.db.db
      .insert(networks)
      .values([
        {
          code: `t-eth-test-${suffix}`,
          name: 'Test Ethereum testnet',
          networkType: 'testnet',
          technology: 'Test Ethereum',
          description: 'Ethereum family',
          chainId: 31337,
          rpcUrl: 'http://127.0.0.1:1',
          rateLimit: 25,
          isLocal: true,
          health: 'ONLINE',
          latestBlock: 12,
          healthCheckedAt: new Date(),
          sortOrder: 901,
        },
        {
          code: `t-poly-test-${suffix}`,
          name: 'Test Polygon testnet',
          networkType: 'testnet',
          technology: 'Test Polygon',
          chainId: 31338,
          rpcUrl: 'http://127.0.0.1:2',
          rateLimit: 10,
          isLocal: true,
          health: 'DEGRADED',
          sortOrder: 902,
        },
        {
          code: `t-eth-main-${suffix}`,
          name: 'Test Ethereum mainnet',
          networkType: 'mainnet',
          technology: 'Test Ethereum',
          chainId: 1,
          rpcUrl: 'http://127.0.0.1:3',
          health: 'OFFLINE',
          sortOrder: 903,
        },
        {
          code: `t-poly-main-${suffix}`,
          name: 'Test Polygon mainnet',
          networkType: 'mainnet',
          technology: 'Test Polygon',
          chainId: 137,
          rpcUrl: null,
          sortOrder: 904,
        },
      ])
      .returning();
    [ids.ethTest, ids.polyTest, ids.ethMain, ids.polyMain] = rows.map((row) => row.id) as [
      string,
      string,
      string,
      string,
    ];
  });
  afterAll(async () => t?.close());

  /**
   * A signed-in user with a portal account on the trial plan (every blockchain, no mainnet, 10
   * testnets), its allowances changed as given, and the KYC status as given.
   */
  async function newUser(allowances: Partial<Allowances> = {}, kycStatus: KycStatus = 'UNVERIFIED') {
    const user = await signInAs(t);
    const me = await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers });
    expect(me.statusCode).toBe(200);
    const accountId = me.json<{ accountId: string }>().accountId;
    if (Object.keys(allowances).length) await setAllowances(t.db.db, accountId, allowances);
    await t.db.db.update(users).set({ kycStatus }).where(eq(users.id, user.sub));
    return { ...user, accountId };
  }

  type User = Awaited<ReturnType<typeof newUser>>;

  const catalogue = async (user: User) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/integrate/v2/networks', headers: user.headers });
    expect(response.statusCode).toBe(200);
    return response.json<TCatalogueResponse>();
  };
  const entry = (body: TCatalogueResponse, id: string) => body.networks.find((n) => n.id === id)!;
  const activate = (user: User, networkIds: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/integrate/v2/networks', headers: user.headers, payload: { networkIds } });
  const userNetworks = async (user: User, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/integrate/v2/user-networks${query}`,
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ networks: TUserNetwork[] }>().networks;
  };

  it('lists the catalogue with live status and why each network can or cannot be activated', async () => {
    const user = await newUser();
    const body = await catalogue(user);
    expect(body.allowance).toEqual({
      blockchainAllowance: 0,
      blockchainsUsed: 0,
      blockchainsLeft: null,
      mainnetsAllowed: false,
      mainnetAllowance: 0,
      testnetAllowance: 10,
      rateLimit: 25,
      kycStatus: 'UNVERIFIED',
    });
    expect(entry(body, ids.ethTest)).toMatchObject({
      network: 'Test Ethereum testnet',
      networkType: 'testnet',
      technology: 'Test Ethereum',
      status: 'ONLINE',
      latestBlock: 12,
      isLocal: true,
      activated: false,
      activatable: true,
      reason: null,
      networkRateLimit: 25,
    });
    expect(entry(body, ids.ethMain)).toMatchObject({ activatable: false, reason: 'PLAN_MAINNETS', status: 'OFFLINE' });
    // No RPC URL: not configured, whatever the plan.
    expect(entry(body, ids.polyMain)).toMatchObject({
      activatable: false,
      reason: 'NO_RPC_URL',
      status: 'NOT_CONFIGURED',
    });
    // RPC URLs are configuration, never shown to users.
    expect(JSON.stringify(body)).not.toContain('127.0.0.1:1');
  });

  it('activates a testnet and shows it in My networks with every column; other accounts do not see it', async () => {
    const user = await newUser();
    const other = await newUser();
    const response = await activate(user, [ids.ethTest]);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ activated: string[] }>().activated).toEqual([ids.ethTest]);

    const testnets = await userNetworks(user, '?networkType=testnet');
    expect(testnets).toHaveLength(1);
    expect(testnets[0]).toMatchObject({
      id: ids.ethTest,
      networkType: 'testnet',
      network: 'Test Ethereum testnet',
      technology: 'Test Ethereum',
      status: 'ONLINE',
      networkRateLimit: 25,
      isLocal: true,
      private: null,
    });
    expect(Date.parse(testnets[0]!.activatedDate!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await userNetworks(user, '?networkType=mainnet')).toEqual([]);
    expect(entry(await catalogue(user), ids.ethTest)).toMatchObject({ activated: true, activatable: false });

    expect(await userNetworks(other)).toEqual([]);
    expect(entry(await catalogue(other), ids.ethTest)).toMatchObject({ activated: false, activatable: true });

    // Activating again changes nothing and keeps the first activation date.
    const again = await activate(user, [ids.ethTest]);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ activated: string[] }>().activated).toEqual([]);
    expect((await userNetworks(user, '?networkType=testnet'))[0]!.activatedDate).toBe(testnets[0]!.activatedDate);
  });

  it('shows the rate limit the gateway enforces for the account — its plan’s, not the network’s 25', async () => {
    const user = await newUser();
    await putOnPlan(t.db.db, user.accountId, 'annual-standard'); // 50 requests a second per network
    const activated = await activate(user, [ids.ethTest]);
    expect(activated.statusCode).toBe(200);
    expect(activated.json<{ networks: TUserNetwork[] }>().networks[0]).toMatchObject({ networkRateLimit: 50 });
    expect((await userNetworks(user))[0]).toMatchObject({ id: ids.ethTest, networkRateLimit: 50 });
    expect((await userNetworks(user, '?networkType=testnet'))[0]).toMatchObject({ networkRateLimit: 50 });
    const body = await catalogue(user);
    expect(body.allowance.rateLimit).toBe(50);
    expect(new Set(body.networks.map((n) => n.networkRateLimit))).toEqual(new Set([50]));
    const environment = await t.app.inject({
      method: 'GET',
      url: `/api/integrate/environment-manager/networks/${user.accountId}`,
      headers: user.headers,
    });
    expect(environment.statusCode).toBe(200);
    const grouped = environment.json<{ blockchains: { networks: { networkRateLimit: number }[] }[] }>();
    expect(new Set(grouped.blockchains.flatMap((b) => b.networks.map((n) => n.networkRateLimit)))).toEqual(
      new Set([50]),
    );
    // The figure follows the plan: a plan of its own at 7 shows 7 at once.
    await setAllowances(t.db.db, user.accountId, { rateLimit: 7 });
    expect((await userNetworks(user))[0]).toMatchObject({ networkRateLimit: 7 });
  });

  it('announces network.activated with the networks it activated; a repeat or a refusal announces nothing', async () => {
    const announced = async (accountId: string) =>
      (await new OutboxRepository(t.db.db).ofType('network.activated')).filter((e) => e.accountId === accountId);
    const user = await newUser({}, 'VERIFIED');
    expect((await activate(user, [ids.ethTest, ids.ethMain])).statusCode).toBe(400);
    expect(await announced(user.accountId)).toEqual([]);

    expect((await activate(user, [ids.ethTest])).statusCode).toBe(200);
    expect((await activate(user, [ids.ethTest])).statusCode).toBe(200);
    expect((await activate(user, [ids.ethTest, ids.polyTest])).statusCode).toBe(200);
    expect((await announced(user.accountId)).map((event) => event.payload)).toEqual([
      { accountId: user.accountId, userId: user.sub, networkIds: [ids.ethTest] },
      { accountId: user.accountId, userId: user.sub, networkIds: [ids.polyTest] },
    ]);
  });

  it('rejects invalid selections with field errors', async () => {
    const user = await newUser();
    const empty = await activate(user, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().invalidParams[0]).toEqual({
      name: 'networkIds',
      reason: 'Please select at least one of the available networks!',
    });
    const notUuid = await activate(user, ['abc']);
    expect(notUuid.statusCode).toBe(400);
    expect(notUuid.json().invalidParams[0].name).toBe('networkIds.0');
    const unknown = await activate(user, [ids.ethTest, '00000000-0000-4000-8000-000000000000']);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().invalidParams).toEqual([{ name: 'networkIds.1', reason: 'This network does not exist' }]);
    // All or nothing: the valid testnet of that request was not activated.
    expect(await userNetworks(user)).toEqual([]);

    const badQuery = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/v2/user-networks?networkType=sidechain',
      headers: user.headers,
    });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().invalidParams[0].name).toBe('networkType');
  });

  it('refuses a network without an RPC URL', async () => {
    const user = await newUser({ mainnets: 3 }, 'VERIFIED');
    const response = await activate(user, [ids.polyMain]);
    expect(response.statusCode).toBe(400);
    expect(response.json().invalidParams[0].reason).toContain('has no RPC URL configured');
  });

  it('needs a plan that allows mainnets and a verified identity for a mainnet, all or nothing', async () => {
    const noPlan = await newUser({}, 'VERIFIED');
    const refused = await activate(noPlan, [ids.polyTest, ids.ethMain]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().invalidParams).toEqual([
      { name: 'networkIds.1', reason: 'Test Ethereum mainnet: Mainnets need an upgraded plan' },
    ]);
    expect(await userNetworks(noPlan)).toEqual([]);

    const unverified = await newUser({ mainnets: 3 }, 'PENDING');
    expect(entry(await catalogue(unverified), ids.ethMain).reason).toBe('KYC_REQUIRED');
    const kyc = await activate(unverified, [ids.ethMain]);
    expect(kyc.statusCode).toBe(400);
    expect(kyc.json().invalidParams[0].reason).toBe('Test Ethereum mainnet: Mainnets need a verified identity');

    // Verified now: the server reads the status afresh, not from the session.
    await t.db.db.update(users).set({ kycStatus: 'VERIFIED' }).where(eq(users.id, unverified.sub));
    const ok = await activate(unverified, [ids.ethMain, ids.ethTest]);
    expect(ok.statusCode).toBe(200);
    expect((await userNetworks(unverified, '?networkType=mainnet')).map((n) => n.id)).toEqual([ids.ethMain]);
  });

  it('applies the plan’s blockchain allowance to the whole selection (0 means all)', async () => {
    const user = await newUser({ blockchains: 1, mainnets: 3 }, 'VERIFIED');
    const both = await activate(user, [ids.ethTest, ids.polyTest]);
    expect(both.statusCode).toBe(400);
    expect(both.json().invalidParams[0]).toEqual({
      name: 'networkIds',
      reason: 'Your plan allows networks of 1 blockchain: this selection would use 2',
    });
    expect(await userNetworks(user)).toEqual([]);

    expect((await activate(user, [ids.ethTest])).statusCode).toBe(200);
    const body = await catalogue(user);
    expect(body.allowance).toMatchObject({ blockchainAllowance: 1, blockchainsUsed: 1, blockchainsLeft: 0 });
    expect(entry(body, ids.polyTest)).toMatchObject({ activatable: false, reason: 'BLOCKCHAIN_ALLOWANCE' });
    // Another network of a blockchain already in use does not count again.
    expect(entry(body, ids.ethMain)).toMatchObject({ activatable: true, reason: null });
    expect((await activate(user, [ids.polyTest])).statusCode).toBe(400);
    expect((await activate(user, [ids.ethMain])).statusCode).toBe(200);

    const unlimited = await newUser({ blockchains: 0 });
    expect((await activate(unlimited, [ids.ethTest, ids.polyTest])).statusCode).toBe(200);
    expect((await catalogue(unlimited)).allowance).toMatchObject({ blockchainsUsed: 2, blockchainsLeft: null });
  });

  it('counts mainnets and testnets against the plan; an upgrade to annual-standard allows mainnets at once', async () => {
    const user = await newUser({}, 'VERIFIED');
    expect(entry(await catalogue(user), ids.ethMain)).toMatchObject({ activatable: false, reason: 'PLAN_MAINNETS' });
    expect((await activate(user, [ids.ethMain])).statusCode).toBe(400);

    await putOnPlan(t.db.db, user.accountId, 'annual-standard');
    const upgraded = await catalogue(user);
    expect(upgraded.allowance).toMatchObject({
      blockchainAllowance: 5,
      mainnetsAllowed: true,
      mainnetAllowance: 3,
      testnetAllowance: 10,
    });
    expect(entry(upgraded, ids.ethMain)).toMatchObject({ activatable: true, reason: null });
    expect((await activate(user, [ids.ethMain])).statusCode).toBe(200);

    // One mainnet and one testnet allowed: a second of either is refused, for the selection and in the catalogue.
    const counted = await newUser({ mainnets: 1, testnets: 1 }, 'VERIFIED');
    const two = await activate(counted, [ids.ethTest, ids.polyTest]);
    expect(two.statusCode).toBe(400);
    expect(two.json().invalidParams).toEqual([
      { name: 'networkIds', reason: 'Your plan allows 1 testnet: this selection would use 2' },
    ]);
    expect((await activate(counted, [ids.ethTest, ids.ethMain])).statusCode).toBe(200);
    const body = await catalogue(counted);
    expect(entry(body, ids.polyTest)).toMatchObject({ activatable: false, reason: 'TESTNET_ALLOWANCE' });
    const otherMainnet = await t.db.db
      .insert(networks)
      .values({
        code: `t-other-main-${Date.now()}`,
        name: 'Other mainnet',
        networkType: 'mainnet',
        technology: 'Test Ethereum',
        chainId: 10,
        rpcUrl: 'http://127.0.0.1:4',
        sortOrder: 905,
      })
      .returning();
    const mainnetId = otherMainnet[0]!.id;
    expect(entry(await catalogue(counted), mainnetId)).toMatchObject({ reason: 'MAINNET_ALLOWANCE' });
    const second = await activate(counted, [mainnetId]);
    expect(second.json().invalidParams).toEqual([
      { name: 'networkIds', reason: 'Your plan allows 1 mainnet: this selection would use 2' },
    ]);
    await t.db.db.delete(networks).where(eq(networks.id, mainnetId));
  });

  it('keeps the active networks after a downgrade below them, but activates no new one', async () => {
    const user = await newUser({ blockchains: 0, testnets: 10 });
    expect((await activate(user, [ids.ethTest, ids.polyTest])).statusCode).toBe(200);
    await setAllowances(t.db.db, user.accountId, { testnets: 1, blockchains: 1 });
    expect((await userNetworks(user, '?networkType=testnet')).map((n) => n.id).sort()).toEqual(
      [ids.ethTest, ids.polyTest].sort(),
    );
    // Sending the active ones again is harmless; nothing new is added.
    expect((await activate(user, [ids.ethTest])).statusCode).toBe(200);
    const body = await catalogue(user);
    expect(body.allowance).toMatchObject({ blockchainAllowance: 1, blockchainsUsed: 2, blockchainsLeft: 0 });
    expect(entry(body, ids.ethTest)).toMatchObject({ activated: true });
  });

  it('activates nothing with PLAN_INACTIVE while the plan is out of service; the active networks stay', async () => {
    const user = await newUser();
    expect((await activate(user, [ids.ethTest])).statusCode).toBe(200);
    await putOnPlan(t.db.db, user.accountId, 'trial', { status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
    const refused = await activate(user, [ids.polyTest]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('PLAN_INACTIVE');
    expect(entry(await catalogue(user), ids.polyTest)).toMatchObject({ activatable: false, reason: 'PLAN_INACTIVE' });
    expect((await userNetworks(user)).map((n) => n.id)).toEqual([ids.ethTest]);
  });

  it('serves the environment manager for the caller’s own account only', async () => {
    const user = await newUser({ blockchains: 2 });
    const other = await newUser();
    await activate(user, [ids.polyTest]);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/integrate/environment-manager/networks/${user.accountId}`,
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      accountId: string;
      blockchains: {
        externalId: string;
        blockchain: string;
        selected: boolean;
        blockchainCount: number;
        networks: { id: string }[];
      }[];
    }>();
    expect(body.accountId).toBe(user.accountId);
    const eth = body.blockchains.find((b) => b.externalId === 'test-ethereum')!;
    const poly = body.blockchains.find((b) => b.externalId === 'test-polygon')!;
    expect(eth).toMatchObject({ blockchain: 'Test Ethereum', selected: false, blockchainCount: 2 });
    expect(eth.networks.map((n) => n.id)).toEqual([ids.ethTest, ids.ethMain]);
    expect(poly).toMatchObject({ selected: true });

    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/integrate/environment-manager/networks/${other.accountId}`,
      headers: user.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/environment-manager/networks/not-a-uuid',
      headers: user.headers,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers 404 (not 403, which would sign the SPA out) without the mynetworks:v2 feature', async () => {
    const user = await newUser();
    await t.db.db
      .delete(accountFeatures)
      .where(
        and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'mynetworks:v2' as FeatureName)),
      );
    for (const [method, url] of [
      ['GET', '/api/integrate/v2/networks'],
      ['GET', '/api/integrate/v2/user-networks'],
      ['GET', `/api/integrate/environment-manager/networks/${user.accountId}`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: user.headers });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().detail).toBe('This feature is not available for your account.');
    }
    expect((await activate(user, [ids.ethTest])).statusCode).toBe(404);
    const rows = await t.db.db.select().from(accountNetworks).where(eq(accountNetworks.accountId, user.accountId));
    expect(rows).toEqual([]);
  });

  it('requires sign-in', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/integrate/v2/networks' });
    expect(response.statusCode).toBe(401);
  });
});
