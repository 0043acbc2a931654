import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayUsageHourly, tokens, tokenTiers, users } from '@connect/db';
import { ZGettingStarted, ZProblem, type KycStatus, type TTokenStatus } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { activate, addNetwork, createApplication, newAppUser, type TestUser } from '../application-manager/testing.ts';

describe('connect service: GET /user/{id}/getting-started', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const get = (user: Pick<TestUser, 'headers'>, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/connect/user/${id}/getting-started`, headers: user.headers });

  /** The ticked steps, in the order the answer lists them. */
  async function ticked(user: TestUser): Promise<string[]> {
    const res = await get(user, user.sub);
    expect(res.statusCode, res.body).toBe(200);
    return ZGettingStarted.parse(res.json())
      .steps.filter((s) => s.isDone)
      .map((s) => s.step);
  }

  const setKyc = (user: TestUser, kycStatus: KycStatus) =>
    t.db.db.update(users).set({ kycStatus }).where(eq(users.id, user.sub));

  async function addToken(user: TestUser, networkId: string, status: TTokenStatus) {
    const [tier] = await t.db.db.select().from(tokenTiers).limit(1);
    await t.db.db.insert(tokens).values({
      externalId: randomUUID(),
      accountId: user.accountId,
      networkId,
      tierId: tier!.id,
      tokenType: tier!.tokenType,
      tierType: tier!.tierType,
      name: 'Green Bond',
      unit: 'GRB',
      deploymentType: 'QUANT',
      status,
    });
  }

  it('lists the five steps in order, none ticked for a new account', async () => {
    const user = await newAppUser(t);
    const res = await get(user, user.sub);
    expect(res.statusCode).toBe(200);
    expect(ZGettingStarted.parse(res.json())).toEqual({
      steps: [
        { step: 'verifyIdentity', isDone: false },
        { step: 'selectNetworks', isDone: false },
        { step: 'registerApplication', isDone: false },
        { step: 'firstGatewayCall', isDone: false },
        { step: 'firstToken', isDone: false },
      ],
    });
  });

  it('ticks each step once its data exists, and only then', async () => {
    const user = await newAppUser(t);

    await setKyc(user, 'PENDING');
    expect(await ticked(user)).toEqual([]);
    await setKyc(user, 'VERIFIED');
    expect(await ticked(user)).toEqual(['verifyIdentity']);

    const network = await addNetwork(t);
    await activate(t, user.accountId, network.id);
    expect(await ticked(user)).toEqual(['verifyIdentity', 'selectNetworks']);

    const app = await createApplication(t, user, [network.id]);
    expect(await ticked(user)).toEqual(['verifyIdentity', 'selectNetworks', 'registerApplication']);

    await t.db.db.insert(gatewayUsageHourly).values({
      applicationId: app.id,
      networkId: network.id,
      method: 'eth_call',
      hour: new Date('2026-11-02T10:00:00Z'),
      accountId: user.accountId,
      calls: 3,
      microCredits: 300,
    });
    expect(await ticked(user)).toEqual(['verifyIdentity', 'selectNetworks', 'registerApplication', 'firstGatewayCall']);

    // A deployment still pending or one that failed is not a first token.
    await addToken(user, network.id, 'PENDING');
    await addToken(user, network.id, 'FAILED');
    expect(await ticked(user)).not.toContain('firstToken');
    await addToken(user, network.id, 'ACTIVE');
    expect(await ticked(user)).toEqual([
      'verifyIdentity',
      'selectNetworks',
      'registerApplication',
      'firstGatewayCall',
      'firstToken',
    ]);
  });

  it("ticks from the caller's own account only, not from another account's activity", async () => {
    const busy = await newAppUser(t);
    const network = await addNetwork(t);
    await activate(t, busy.accountId, network.id);
    const app = await createApplication(t, busy, [network.id]);
    await t.db.db.insert(gatewayUsageHourly).values({
      applicationId: app.id,
      networkId: network.id,
      method: 'eth_call',
      hour: new Date('2026-11-02T10:00:00Z'),
      accountId: busy.accountId,
      calls: 1,
      microCredits: 100,
    });
    await addToken(busy, network.id, 'ACTIVE');

    const newcomer = await newAppUser(t);
    expect(await ticked(newcomer)).toEqual([]);
  });

  it("answers 404 for another user's id, existing or not, and 400 for an id that is not a UUID", async () => {
    const me = await newAppUser(t);
    const other = await newAppUser(t);
    for (const id of [other.sub, randomUUID()]) {
      const res = await get(me, id);
      expect(res.statusCode).toBe(404);
      expect(ZProblem.parse(res.json()).status).toBe(404);
    }
    const bad = await get(me, 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(ZProblem.parse(bad.json()).invalidParams?.map((p) => p.name)).toEqual(['id']);
  });

  it('answers 401 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/connect/user/${randomUUID()}/getting-started` });
    expect(res.statusCode).toBe(401);
  });

  it('is documented under the connect tag with the bearer token and declared for users', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { tags?: string[]; summary?: string; security?: unknown[] }>>;
    };
    const operation = doc.paths['/api/connect/user/{id}/getting-started']?.get;
    expect(operation?.tags).toEqual(['connect']);
    expect(operation?.summary).toBeTruthy();
    expect(operation?.security).toEqual([{ bearerAuth: [] }]);
    const declared = t.app.routeAccess.find((route) => route.url === '/api/connect/user/:id/getting-started');
    expect(declared?.access).toBe('user');
  });
});
