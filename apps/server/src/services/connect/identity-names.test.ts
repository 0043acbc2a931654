import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { idpUsers, users } from '@connect/db';
import { FIELD_MESSAGES, ZProblem, ZUser } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { TEST_PROFILE } from './testing.ts';

/** PUT /user/identity (issue 35 §2, spec §5): the names, in the portal and in the identity pool. */
describe('connect service: the names the identity pool holds', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  afterEach(() => vi.restoreAllMocks());

  const call = (method: 'GET' | 'PUT', url: string, headers?: { authorization: string }, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/connect${url}`,
      ...(headers ? { headers } : {}),
      ...(payload !== undefined ? { payload } : {}),
    });

  async function newUser(options: { profile?: boolean } = {}) {
    const session = await signInAs(t);
    expect((await call('GET', `/user/${session.sub}`, session.headers)).statusCode).toBe(200);
    if (options.profile) expect((await call('PUT', '/user', session.headers, TEST_PROFILE)).statusCode).toBe(200);
    return session;
  }

  const portalNames = async (id: string) =>
    (
      await t.db.db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, id))
    )[0];
  const poolAttributes = async (sub: string) =>
    (await t.db.db.select({ attributes: idpUsers.attributes }).from(idpUsers).where(eq(idpUsers.sub, sub)))[0]
      ?.attributes;

  it('saves the names on the portal user and in the pool (given_name, family_name)', async () => {
    const { sub, headers } = await newUser();
    const res = await call('PUT', '/user/identity', headers, { firstName: '  Ada ', lastName: 'Lovelace' });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZUser.parse(res.json())).toMatchObject({ id: sub, firstName: 'Ada', lastName: 'Lovelace' });
    expect(await portalNames(sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(await poolAttributes(sub)).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
  });

  it('leaves the profile’s other fields as they were', async () => {
    const { sub, headers } = await newUser({ profile: true });
    const res = await call('PUT', '/user/identity', headers, { firstName: 'Augusta', lastName: 'King' });
    expect(res.statusCode).toBe(200);
    expect(ZUser.parse(res.json())).toMatchObject({
      firstName: 'Augusta',
      lastName: 'King',
      organisationName: TEST_PROFILE.organisationName,
      industry: TEST_PROFILE.industry,
      hearAboutUs: TEST_PROFILE.hearAboutUs,
    });
    expect(await poolAttributes(sub)).toEqual({ given_name: 'Augusta', family_name: 'King' });
  });

  it('keeps the pool in step when PUT /user changes the names too', async () => {
    const { sub, headers } = await newUser({ profile: true });
    expect(await poolAttributes(sub)).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
    expect((await call('PUT', '/user', headers, { ...TEST_PROFILE, lastName: 'Byron' })).statusCode).toBe(200);
    expect(await poolAttributes(sub)).toEqual({ given_name: 'Ada', family_name: 'Byron' });
  });

  it.each([
    ['no body', undefined, ['body']],
    ['no names', {}, ['firstName', 'lastName']],
    ['an empty first name', { firstName: '   ', lastName: 'Lovelace' }, ['firstName']],
    ['a too long last name', { firstName: 'Ada', lastName: 'x'.repeat(101) }, ['lastName']],
    ['a name that is not text', { firstName: 42, lastName: 'Lovelace' }, ['firstName']],
  ] as [string, object | undefined, string[]][])(
    'refuses %s with invalidParams and changes nothing',
    async (_case, body, fields) => {
      const { sub, headers } = await newUser({ profile: true });
      const res = await call('PUT', '/user/identity', headers, body);
      expect(res.statusCode).toBe(400);
      const problem = ZProblem.parse(res.json());
      expect(problem.invalidParams?.map((param) => param.name)).toEqual(fields);
      expect(await portalNames(sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
      expect(await poolAttributes(sub)).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
    },
  );

  it('needs a signed-in user', async () => {
    expect((await call('PUT', '/user/identity', undefined, { firstName: 'A', lastName: 'B' })).statusCode).toBe(401);
  });

  it('changes only the caller: another user’s names stay in the portal and the pool', async () => {
    const other = await newUser({ profile: true });
    const { headers } = await newUser();
    expect((await call('PUT', '/user/identity', headers, { firstName: 'Eve', lastName: 'Mallory' })).statusCode).toBe(
      200,
    );
    expect(await portalNames(other.sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(await poolAttributes(other.sub)).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
  });

  it('still changes the names while a check is PENDING (that check then fails on them)', async () => {
    const { sub, headers } = await newUser({ profile: true });
    await t.db.db.update(users).set({ kycStatus: 'PENDING' }).where(eq(users.id, sub));
    const res = await call('PUT', '/user/identity', headers, { firstName: 'Augusta', lastName: 'Lovelace' });
    expect(res.statusCode).toBe(200);
    expect(await poolAttributes(sub)).toEqual({ given_name: 'Augusta', family_name: 'Lovelace' });
  });

  describe('once the identity is verified (spec §5)', () => {
    async function verifiedUser() {
      const session = await newUser({ profile: true });
      await t.db.db.update(users).set({ kycStatus: 'VERIFIED' }).where(eq(users.id, session.sub));
      return session;
    }

    it('refuses changed names with 409 NAMES_LOCKED, in neither the portal nor the pool', async () => {
      const { sub, headers } = await verifiedUser();
      const updateAttributes = vi.spyOn(t.app.deps.identityAdmin, 'updateAttributes');
      const res = await call('PUT', '/user/identity', headers, { firstName: 'Augusta', lastName: 'King' });
      expect(res.statusCode).toBe(409);
      const problem = ZProblem.parse(res.json());
      expect(problem.code).toBe('NAMES_LOCKED');
      expect(problem.invalidParams).toEqual([
        { name: 'firstName', reason: FIELD_MESSAGES.namesLocked },
        { name: 'lastName', reason: FIELD_MESSAGES.namesLocked },
      ]);
      expect(updateAttributes).not.toHaveBeenCalled();
      expect(await portalNames(sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
      expect(await poolAttributes(sub)).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
    });

    it('answers unchanged names with the user, writing nothing', async () => {
      const { headers } = await verifiedUser();
      const updateAttributes = vi.spyOn(t.app.deps.identityAdmin, 'updateAttributes');
      const res = await call('PUT', '/user/identity', headers, { firstName: 'Ada', lastName: 'Lovelace' });
      expect(res.statusCode).toBe(200);
      expect(ZUser.parse(res.json()).onfidoApplicantStatus).toBe('VERIFIED');
      expect(updateAttributes).not.toHaveBeenCalled();
    });
  });

  describe('when the identity pool fails', () => {
    it('answers 502 IDENTITY_POOL_FAILED and the portal keeps its names', async () => {
      const { sub, headers } = await newUser({ profile: true });
      vi.spyOn(t.app.deps.identityAdmin, 'updateAttributes').mockRejectedValueOnce(
        Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }),
      );
      const res = await call('PUT', '/user/identity', headers, { firstName: 'Augusta', lastName: 'King' });
      expect(res.statusCode).toBe(502);
      expect(ZProblem.parse(res.json()).code).toBe('IDENTITY_POOL_FAILED');
      expect(await portalNames(sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    });

    it('gives the pool its names back when the portal refuses after the pool took them', async () => {
      const { sub, headers } = await newUser({ profile: true });
      const admin = t.app.deps.identityAdmin;
      const original = admin.updateAttributes.bind(admin);
      // A check settles VERIFIED while the pool is being written: the portal then refuses the names.
      vi.spyOn(admin, 'updateAttributes').mockImplementationOnce(async (username, attributes) => {
        await original(username, attributes);
        await t.db.db.update(users).set({ kycStatus: 'VERIFIED' }).where(eq(users.id, sub));
      });
      const res = await call('PUT', '/user/identity', headers, { firstName: 'Augusta', lastName: 'King' });
      expect(res.statusCode).toBe(409);
      expect(await portalNames(sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
      expect(await poolAttributes(sub)).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
    });

    it('ends the session when the pool no longer has the user', async () => {
      const { sub, headers } = await newUser({ profile: true });
      vi.spyOn(t.app.deps.identityAdmin, 'updateAttributes').mockRejectedValueOnce(
        Object.assign(new Error('User does not exist.'), { name: 'UserNotFoundException' }),
      );
      const res = await call('PUT', '/user/identity', headers, { firstName: 'Augusta', lastName: 'King' });
      expect(res.statusCode).toBe(401);
      expect(await portalNames(sub)).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    });
  });
});
