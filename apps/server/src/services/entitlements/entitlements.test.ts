import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, entitlementOverrides } from '@connect/db';
import { NETWORK_MESSAGES, ZAvailableFeatures, type TAvailableFeatures } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { putOnPlan, setAllowances } from '../../../test/plans.ts';
import { activate, addNetwork, createApplication, newAppUser, type TestUser } from '../application-manager/testing.ts';
import { GatewayRepository } from '../gateway/repository.ts';
import { Entitlements, needsIdentityFor, requireVerifiedIdentity } from './index.ts';

/** The trial plan's allowances (migration 0009's seed). */
const TRIAL = { applications: 3, tokens: 5, bridges: 2, blockchains: 0, mainnets: 0, testnets: 10, rateLimit: 25 };

describe('entitlements', () => {
  let t: TestContext;
  let entitlements: Entitlements;

  beforeAll(async () => {
    t = await createTestApp();
    entitlements = new Entitlements(t.db.db);
  });
  afterAll(() => t?.close());

  const available = async (user: TestUser): Promise<TAvailableFeatures> => {
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/available', headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return ZAvailableFeatures.parse(res.json()).availableFeatures;
  };

  const createApp = (user: TestUser, networkId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/application-manager/create-application/',
      headers: user.headers,
      payload: {
        name: `App ${Math.random().toString(36).slice(2, 8)}`,
        callbackUrl: 'https://example.com/cb',
        applicationType: 'testnet',
        networkIds: [networkId],
      },
    });

  it('answers every allowance of the plan, with how much of each counted one is left', async () => {
    const user = await newAppUser(t);
    await putOnPlan(t.db.db, user.accountId, 'trial');
    expect(await entitlements.allowances(user.accountId)).toEqual({
      accountId: user.accountId,
      status: 'ACTIVE',
      inService: true,
      ...TRIAL,
    });
    for (const key of ['applications', 'tokens', 'bridges'] as const) {
      expect(await entitlements.quota(user.accountId, key)).toEqual({
        total: TRIAL[key],
        used: 0,
        left: TRIAL[key],
        inService: true,
      });
    }
    expect(await entitlements.rateLimits([user.accountId])).toEqual(new Map([[user.accountId, TRIAL.rateLimit]]));
    // The feature map: the counters' totals are the allowances, the switches the account's rows.
    expect(await available(user)).toMatchObject({
      'applications:create': { t: 3, a: 0 },
      'tokens:create': { t: 5, a: 0 },
      'bridges:create': { t: 2, a: 0 },
      privateNetwork: { t: null, a: 0 },
      'mynetworks:v2': { t: null, a: 0 },
    });
  });

  it('takes nothing while the plan is out of service, and says so', async () => {
    const user = await newAppUser(t);
    await putOnPlan(t.db.db, user.accountId, 'trial', { status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
    expect(await entitlements.allowances(user.accountId)).toMatchObject({ status: 'INACTIVE', inService: false });
    expect(await entitlements.take(user.accountId, 'bridges')).toBe('inactive');
    expect(await entitlements.quota(user.accountId, 'bridges')).toMatchObject({ used: 0, inService: false });
  });

  it('takes a counted allowance in one statement: concurrent takes never exceed it (bridges)', async () => {
    const user = await newAppUser(t);
    await setAllowances(t.db.db, user.accountId, { bridges: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => entitlements.take(user.accountId, 'bridges')));
    expect(results.filter((r) => r === 'taken')).toHaveLength(2);
    expect(results.filter((r) => r === 'quota')).toHaveLength(4);
    expect(await entitlements.quota(user.accountId, 'bridges')).toMatchObject({ total: 2, used: 2, left: 0 });
    await entitlements.release(user.accountId, 'bridges');
    expect(await entitlements.quota(user.accountId, 'bridges')).toMatchObject({ used: 1, left: 1 });
  });

  it('an allowance override wins over the plan until cleared: GET /available and the guarded write follow it', async () => {
    const user = await newAppUser(t);
    const network = await addNetwork(t);
    await activate(t, user.accountId, network.id);
    await entitlements.setOverride(user.accountId, 'applications', { amount: 1 }, user.sub);
    expect(await entitlements.overrides(user.accountId)).toEqual([
      { key: 'applications', value: { amount: 1 }, setBy: user.sub, setAt: expect.any(Date) },
    ]);
    expect((await available(user))['applications:create']).toEqual({ t: 1, a: 0 });
    expect((await createApp(user, network.id)).statusCode).toBe(201);
    const refused = await createApp(user, network.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('APPLICATION_QUOTA_REACHED');

    expect(await entitlements.clearOverride(user.accountId, 'applications')).toBe(true);
    expect(await entitlements.clearOverride(user.accountId, 'applications')).toBe(false);
    expect((await available(user))['applications:create']).toEqual({ t: TRIAL.applications, a: 1 });
    expect((await createApp(user, network.id)).statusCode).toBe(201);
  });

  it('a tokens override reaches the tokens guard', async () => {
    const user = await newAppUser(t);
    await entitlements.setOverride(user.accountId, 'tokens', { amount: 0 });
    expect((await available(user))['tokens:create']).toEqual({ t: 0, a: 0 });
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/tokenise/v2/orchestration/locations',
      headers: user.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('TOKEN_QUOTA_REACHED');
    await entitlements.clearOverride(user.accountId, 'tokens');
    expect(await entitlements.quota(user.accountId, 'tokens')).toMatchObject({ total: TRIAL.tokens, left: 5 });
  });

  it('a network allowance override decides what may be activated (testnets)', async () => {
    const user = await newAppUser(t);
    const [a, b] = [await addNetwork(t), await addNetwork(t)];
    await entitlements.setOverride(user.accountId, 'testnets', { amount: 1 });
    const activateBoth = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/integrate/v2/networks',
        headers: user.headers,
        payload: { networkIds: [a.id, b.id] },
      });
    const refused = await activateBoth();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().invalidParams).toEqual([
      { name: 'networkIds', reason: `${NETWORK_MESSAGES.testnetAllowance(1)}: this selection would use 2` },
    ]);
    await entitlements.clearOverride(user.accountId, 'testnets');
    expect((await activateBoth()).statusCode).toBe(200);
  });

  it("a rate override is the gateway's rate for the account", async () => {
    const user = await newAppUser(t);
    const network = await addNetwork(t);
    await activate(t, user.accountId, network.id);
    const application = await createApplication(t, user, [network.id]);
    const gateway = new GatewayRepository(t.db);
    const rate = async () => (await gateway.findRoute(application.id, network.id, '2026-11-01'))?.rateLimit;
    expect(await rate()).toBe(TRIAL.rateLimit);
    await entitlements.setOverride(user.accountId, 'rateLimit', { amount: 500 });
    expect(await rate()).toBe(500);
    expect(await entitlements.rateLimits([user.accountId])).toEqual(new Map([[user.accountId, 500]]));
    await entitlements.clearOverride(user.accountId, 'rateLimit');
    expect(await rate()).toBe(TRIAL.rateLimit);
  });

  it('a switch override turns a feature off or on, whatever the account row says, until cleared', async () => {
    const user = await newAppUser(t);
    const validate = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/integrate/private-networks/validate',
        headers: user.headers,
        // Nothing listens on port 1: past the feature, the check refuses the URL at once (400).
        payload: {
          name: 'Acme chain',
          networkType: 'sandbox',
          chainId: 7,
          eip1559: true,
          numberOfBlocks: 12,
          url: 'http://127.0.0.1:1',
          tokenSymbol: 'ACME',
          tokenDecimals: 18,
          nodeType: 'full',
        },
      });
    await entitlements.setOverride(user.accountId, 'privateNetwork', { enabled: false });
    expect(await available(user)).not.toHaveProperty('privateNetwork');
    expect((await validate()).statusCode).toBe(404);
    await entitlements.clearOverride(user.accountId, 'privateNetwork');
    expect((await available(user)).privateNetwork).toEqual({ t: null, a: 0 });
    expect((await validate()).statusCode).toBe(400);

    await t.db.db
      .delete(accountFeatures)
      .where(and(eq(accountFeatures.accountId, user.accountId), eq(accountFeatures.feature, 'reward')));
    expect(await available(user)).not.toHaveProperty('reward');
    await entitlements.setOverride(user.accountId, 'reward', { enabled: true });
    expect((await available(user)).reward).toEqual({ t: null, a: 0 });
  });

  it('refuses an override that does not fit its key', async () => {
    const user = await newAppUser(t);
    await expect(entitlements.setOverride(user.accountId, 'privateNetwork', { amount: 3 })).rejects.toThrow(TypeError);
    await expect(entitlements.setOverride(user.accountId, 'tokens', { enabled: true })).rejects.toThrow(TypeError);
    await expect(entitlements.setOverride(user.accountId, 'tokens', { amount: -1 })).rejects.toThrow(TypeError);
    const rows = await t.db.db
      .select()
      .from(entitlementOverrides)
      .where(eq(entitlementOverrides.accountId, user.accountId));
    expect(rows).toEqual([]);
  });

  it('mainnets need a verified identity, testnets do not', () => {
    expect(needsIdentityFor('mainnet', { kycStatus: 'PENDING' })).toBe(true);
    expect(needsIdentityFor('mainnet', { kycStatus: 'VERIFIED' })).toBe(false);
    expect(needsIdentityFor('testnet', { kycStatus: 'UNVERIFIED' })).toBe(false);
    expect(() => requireVerifiedIdentity({ kycStatus: 'FAILED' })).toThrow(
      expect.objectContaining({ code: 'IDENTITY_VERIFICATION_REQUIRED' }),
    );
  });
});
