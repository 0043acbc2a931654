import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betaOptins } from '@connect/db';
import { ZRoutesResponse, type RouteItem } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { newAppUser, type TestUser } from '../application-manager/testing.ts';
import { Entitlements } from './index.ts';
import { betaCalls, type Caller } from './testing.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('Connect Beta (issue 35 §1): a customer opts in and out', () => {
  let t: TestContext;
  let admin: Caller & { sub: string };
  let beta: ReturnType<typeof betaCalls>;
  let entitlements: Entitlements;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    beta = betaCalls(t);
    entitlements = new Entitlements(t.db.db);
  });
  afterAll(() => t?.close());

  const paths = (routes: RouteItem[]): string[] => routes.flatMap((r) => [r.path, ...paths(r.children ?? [])]);
  const routesOf = async (user: TestUser) => {
    const res = await beta.inject('GET', '/user/routes', user);
    expect(res.statusCode, res.body).toBe(200);
    return paths(ZRoutesResponse.parse(res.json()).routes);
  };

  it('lists the seeded Bridges feature to a new account, which no longer has the bridge switch by default', async () => {
    const user = await newAppUser(t);
    const features = await beta.list(user);
    expect(features).toContainEqual(
      expect.objectContaining({ name: 'Bridges', featureKey: 'bridge', access: 'OPEN', optedIn: false }),
    );
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    expect((await routesOf(user)).filter((p) => p.includes('bridge'))).toEqual([]);
  });

  it('opting in turns the key on at once (GET /available, the route list, the server’s check); opting out turns it off', async () => {
    const user = await newAppUser(t);
    const feature = await beta.create(admin);
    const opted = await beta.optIn(user, feature.id);
    expect(opted).toEqual({
      id: feature.id,
      name: feature.name,
      description: feature.description,
      featureKey: 'bridge',
      access: 'OPEN',
      optedIn: true,
      overriddenOff: false,
    });
    expect((await beta.available(user)).bridge).toEqual({ t: null, a: 0 });
    expect(await routesOf(user)).toContain('/quant-flows/bridge-flow');
    expect(await entitlements.hasFeature(user.accountId, 'bridge')).toBe(true);
    expect((await beta.list(user)).find((f) => f.id === feature.id)?.optedIn).toBe(true);

    // Again: the same answer, one row, one audit entry.
    expect(await beta.optIn(user, feature.id)).toEqual(opted);
    const rows = await t.db.db.select().from(betaOptins).where(eq(betaOptins.accountId, user.accountId));
    expect(rows).toEqual([expect.objectContaining({ betaFeatureId: feature.id, optedInBy: user.sub })]);

    expect(await beta.optOut(user, feature.id)).toEqual({ ...opted, optedIn: false });
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    expect(await entitlements.hasFeature(user.accountId, 'bridge')).toBe(false);
    expect(await beta.optOut(user, feature.id)).toEqual({ ...opted, optedIn: false });

    const audit = await beta.audit('account', user.accountId);
    expect(audit.map((e) => [e.action, e.actorId, e.actorEmail, e.outcome])).toEqual([
      ['BETA_OPTED_IN', user.sub, user.email, 'DONE'],
      ['BETA_OPTED_OUT', user.sub, user.email, 'DONE'],
    ]);
    expect(audit[0]).toMatchObject({
      before: { betaFeatureId: feature.id, name: feature.name, featureKey: 'bridge', optedIn: false },
      after: { betaFeatureId: feature.id, name: feature.name, featureKey: 'bridge', optedIn: true },
    });
    expect(audit[0]!.requestId).toEqual(expect.any(String));
  });

  it('another account’s opt-in changes nothing for mine', async () => {
    const [mine, theirs] = [await newAppUser(t), await newAppUser(t)];
    const feature = await beta.create(admin);
    await beta.optIn(theirs, feature.id);
    expect((await beta.available(theirs)).bridge).toBeDefined();
    expect(await beta.available(mine)).not.toHaveProperty('bridge');
    expect((await beta.list(mine)).find((f) => f.id === feature.id)?.optedIn).toBe(false);
    // My opting out does not opt them out either.
    await beta.optOut(mine, feature.id);
    expect((await beta.available(theirs)).bridge).toBeDefined();
  });

  it('a staff override switching the key off wins over the opt-in, and says so; cleared, the opt-in counts again', async () => {
    const user = await newAppUser(t);
    const feature = await beta.create(admin);
    await beta.optIn(user, feature.id);
    const off = await beta.inject('PUT', `/management/accounts/${user.accountId}/overrides/bridge`, admin, {
      enabled: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    expect(await entitlements.hasFeature(user.accountId, 'bridge')).toBe(false);
    expect((await beta.list(user)).find((f) => f.id === feature.id)).toMatchObject({
      optedIn: true,
      overriddenOff: true,
    });
    // Opting in again does not get round the override.
    expect(await beta.optIn(user, feature.id)).toMatchObject({ optedIn: true, overriddenOff: true });
    expect(await beta.available(user)).not.toHaveProperty('bridge');

    await entitlements.clearOverride(user.accountId, 'bridge');
    expect((await beta.available(user)).bridge).toEqual({ t: null, a: 0 });
    // An override switching it on holds without an opt-in.
    await beta.optOut(user, feature.id);
    await entitlements.setOverride(user.accountId, 'bridge', { enabled: true });
    expect((await beta.available(user)).bridge).toEqual({ t: null, a: 0 });
  });

  it('an invitation-only feature is hidden (404) until the account is invited', async () => {
    const [user, other] = [await newAppUser(t), await newAppUser(t)];
    const feature = await beta.create(admin, { access: 'INVITATION' });
    expect((await beta.list(user)).map((f) => f.id)).not.toContain(feature.id);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await beta.inject(method, `/beta/features/${feature.id}/optin`, user);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('BETA_FEATURE_NOT_FOUND');
    }
    // An opt-in written past the API (as one left behind) switches nothing on without an invitation.
    await t.db.db.insert(betaOptins).values({ betaFeatureId: feature.id, accountId: user.accountId });
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    await t.db.db
      .delete(betaOptins)
      .where(and(eq(betaOptins.betaFeatureId, feature.id), eq(betaOptins.accountId, user.accountId)));

    const invited = await beta.inject('POST', `/management/beta-features/${feature.id}/invitations`, admin, {
      accountId: user.accountId,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect((await beta.list(user)).find((f) => f.id === feature.id)).toMatchObject({
      access: 'INVITATION',
      optedIn: false,
    });
    await beta.optIn(user, feature.id);
    expect((await beta.available(user)).bridge).toEqual({ t: null, a: 0 });
    // The invitation is the account's alone.
    expect((await beta.list(other)).map((f) => f.id)).not.toContain(feature.id);
    expect((await beta.inject('PUT', `/beta/features/${feature.id}/optin`, other)).statusCode).toBe(404);
  });

  it('needs the feature connectBeta: without it every call answers 404 FEATURE_UNAVAILABLE and opt-ins switch nothing on', async () => {
    const user = await newAppUser(t);
    const feature = await beta.create(admin);
    await beta.optIn(user, feature.id);
    await entitlements.setOverride(user.accountId, 'connectBeta', { enabled: false });
    for (const [method, url] of [
      ['GET', '/beta/features'],
      ['PUT', `/beta/features/${feature.id}/optin`],
      ['DELETE', `/beta/features/${feature.id}/optin`],
    ] as const) {
      const res = await beta.inject(method, url, user);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('FEATURE_UNAVAILABLE');
    }
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    await entitlements.clearOverride(user.accountId, 'connectBeta');
    expect((await beta.available(user)).bridge).toBeDefined();
  });

  it('answers bad and unknown ids as problem details', async () => {
    const user = await newAppUser(t);
    const bad = await beta.inject('PUT', '/beta/features/not-a-uuid/optin', user);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      invalidParams: [{ name: 'id', reason: 'The beta feature id must be a UUID.' }],
    });
    for (const method of ['PUT', 'DELETE'] as const) {
      const unknown = await beta.inject(method, `/beta/features/${UNKNOWN}/optin`, user);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('BETA_FEATURE_NOT_FOUND');
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/connect/beta/features' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a deleted feature takes its opt-ins with it: the key turns off for those accounts', async () => {
    const user = await newAppUser(t);
    const feature = await beta.create(admin);
    await beta.optIn(user, feature.id);
    expect((await beta.available(user)).bridge).toBeDefined();
    const res = await beta.inject('DELETE', `/management/beta-features/${feature.id}`, admin);
    expect(res.statusCode, res.body).toBe(204);
    expect(await beta.available(user)).not.toHaveProperty('bridge');
    expect(await t.db.db.select().from(betaOptins).where(eq(betaOptins.betaFeatureId, feature.id))).toEqual([]);
    expect((await beta.list(user)).map((f) => f.id)).not.toContain(feature.id);
  });
});
