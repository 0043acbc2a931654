import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountFeatures, accounts, idpUsers, LATEST_TERMS, termsAcceptances, termsVersions, users } from '@connect/db';
import {
  FIELD_MESSAGES,
  type Role,
  type TUpdateUserRequest,
  ZMfaStatus,
  ZProblem,
  ZTermsVersion,
  ZUser,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { DEFAULT_ACCOUNT_FEATURES } from '../../lib/portal-users.ts';
import { Entitlements } from '../entitlements/index.ts';

type Headers = { authorization: string };
type Method = 'GET' | 'PUT' | 'POST';

const PROFILE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines Ltd',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '11-50',
  hearAboutUs: 'EVENT',
  hearAboutUsDescription: 'Devcon',
} satisfies TUpdateUserRequest;

const COMPANY = {
  organisationName: 'Difference Engines plc',
  organisationLocation: 'Ireland',
  industry: 'Banking',
  companySize: '201-1000',
};

describe('connect service: the user', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  const call = (method: Method, url: string, headers?: Headers, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/connect${url}`,
      ...(headers ? { headers } : {}),
      ...(payload ? { payload } : {}),
    });

  /** A signed-in user whose portal user exists (created by the first request, as in production). */
  async function newUser(role?: Role) {
    const session = await signInAs(t, role ? { role } : {});
    const res = await call('GET', `/user/${session.sub}`, session.headers);
    expect(res.statusCode).toBe(200);
    return { ...session, user: ZUser.parse(res.json()) };
  }

  /** The stored user and account, straight from the tables, to prove what was (not) written. */
  async function storedUser(id: string) {
    const [row] = await t.db.db
      .select({ user: users, account: accounts })
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .where(eq(users.id, id));
    return row!;
  }

  function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) {
    expect(res.headers['content-type']).toContain('application/problem+json');
    return ZProblem.parse(res.json());
  }

  describe('GET /user/{id}', () => {
    it('creates the user, an account and its default features on the first authenticated request', async () => {
      const session = await signInAs(t);
      expect(await t.db.db.select().from(users).where(eq(users.id, session.sub))).toEqual([]);

      const res = await call('GET', `/user/${session.sub}`, session.headers);
      expect(res.statusCode).toBe(200);
      const user = ZUser.parse(res.json());
      expect(user).toMatchObject({
        id: session.sub,
        sub: session.sub,
        email: session.email,
        role: 'INDIVIDUAL',
        status: 'ACTIVE',
        firstName: null,
        organisationName: null,
        promotionalEmails: false,
        acceptedTerms: false,
        acceptedTermsVersion: null,
        latestTerms: LATEST_TERMS.version,
        mfaSetup: false,
        mfaConfirm: false,
        userMfaStatus: 'DISABLED',
        onfidoApplicantStatus: 'UNVERIFIED',
      });
      expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);

      const stored = await storedUser(session.sub);
      expect(stored.account.id).toBe(user.accountId);
      const features = await t.db.db
        .select({ feature: accountFeatures.feature, total: accountFeatures.total, used: accountFeatures.used })
        .from(accountFeatures)
        .where(eq(accountFeatures.accountId, user.accountId));
      expect(features).toHaveLength(DEFAULT_ACCOUNT_FEATURES.length);
      expect(features).toEqual(expect.arrayContaining(DEFAULT_ACCOUNT_FEATURES.map((f) => ({ ...f, used: 0 }))));
      // What it may have comes from its plan: the trial's allowances, in service.
      const allowances = await new Entitlements(t.db.db).allowances(user.accountId);
      expect(allowances).toMatchObject({ status: 'ACTIVE', inService: true, applications: 3, tokens: 5, bridges: 2 });
    });

    it('reads the caller even when the id is written in capitals', async () => {
      const { sub, headers } = await newUser();
      const res = await call('GET', `/user/${sub.toUpperCase()}`, headers);
      expect(res.statusCode).toBe(200);
      expect(ZUser.parse(res.json()).id).toBe(sub);
    });

    it("answers 404 for another user's id, existing or not, with nothing that tells them apart", async () => {
      const me = await newUser();
      const other = await newUser();
      const existing = await call('GET', `/user/${other.sub}`, me.headers);
      const missing = await call('GET', `/user/${randomUUID()}`, me.headers);
      for (const res of [existing, missing]) {
        expect(res.statusCode).toBe(404);
        expect(expectProblem(res)).toMatchObject({ status: 404, title: 'Not Found' });
      }
      const { instance: _i1, requestId: _r1, ...existingBody } = existing.json();
      const { instance: _i2, requestId: _r2, ...missingBody } = missing.json();
      expect(existingBody).toEqual(missingBody);
      expect(existing.body).not.toContain(other.email);
      expect(existing.body).not.toContain(other.user.accountId);
    });

    it('answers 400 naming the id when it is not a UUID', async () => {
      const { headers } = await newUser();
      const res = await call('GET', '/user/not-a-uuid', headers);
      expect(res.statusCode).toBe(400);
      expect(expectProblem(res).invalidParams).toEqual([{ name: 'id', reason: 'The user id must be a UUID.' }]);
    });
  });

  describe('PUT /user', () => {
    it('saves the profile on the user and the account organisation in one go', async () => {
      const { sub, headers, user: before } = await newUser();
      const res = await call('PUT', '/user', headers, { ...PROFILE, firstName: '  Ada ' });
      expect(res.statusCode).toBe(200);
      const user = ZUser.parse(res.json());
      expect(user).toMatchObject({ ...PROFILE, id: sub, accountId: before.accountId });

      const stored = await storedUser(sub);
      expect(stored.user).toMatchObject({
        firstName: 'Ada',
        lastName: 'Lovelace',
        hearAboutUs: 'EVENT',
        hearAboutUsDescription: 'Devcon',
      });
      expect(stored.account).toMatchObject({
        organisationName: PROFILE.organisationName,
        organisationLocation: PROFILE.organisationLocation,
        industry: PROFILE.industry,
        companySize: PROFILE.companySize,
      });
    });

    it('stores no description when the answer needs none and none is given', async () => {
      const { sub, headers } = await newUser();
      await call('PUT', '/user', headers, PROFILE);
      const { hearAboutUsDescription: _d, ...withoutDescription } = PROFILE;
      const res = await call('PUT', '/user', headers, { ...withoutDescription, hearAboutUs: 'SEARCH_ENGINE' });
      expect(res.statusCode).toBe(200);
      expect(ZUser.parse(res.json()).hearAboutUsDescription).toBeNull();
      expect((await storedUser(sub)).user.hearAboutUsDescription).toBeNull();
    });

    const invalid: [string, unknown, { name: string; reason: string }[]][] = [
      [
        'missing fields',
        { firstName: 'Ada' },
        [
          { name: 'lastName', reason: FIELD_MESSAGES.required },
          { name: 'organisationName', reason: FIELD_MESSAGES.required },
          { name: 'organisationLocation', reason: FIELD_MESSAGES.required },
          { name: 'industry', reason: FIELD_MESSAGES.required },
          { name: 'companySize', reason: FIELD_MESSAGES.required },
          { name: 'hearAboutUs', reason: FIELD_MESSAGES.required },
        ],
      ],
      [
        'a blank first name',
        { ...PROFILE, firstName: '   ' },
        [{ name: 'firstName', reason: FIELD_MESSAGES.required }],
      ],
      ['a number for a name', { ...PROFILE, lastName: 42 }, [{ name: 'lastName', reason: FIELD_MESSAGES.required }]],
      [
        'a too long organisation name',
        { ...PROFILE, organisationName: 'x'.repeat(201) },
        [{ name: 'organisationName', reason: FIELD_MESSAGES.tooLong(200) }],
      ],
      [
        'a too long description',
        { ...PROFILE, hearAboutUsDescription: 'x'.repeat(501) },
        [{ name: 'hearAboutUsDescription', reason: FIELD_MESSAGES.tooLong(500) }],
      ],
      [
        'an unknown company size',
        { ...PROFILE, companySize: 'huge' },
        [{ name: 'companySize', reason: FIELD_MESSAGES.required }],
      ],
      [
        'EVENT without a description',
        { ...PROFILE, hearAboutUs: 'EVENT', hearAboutUsDescription: undefined },
        [{ name: 'hearAboutUsDescription', reason: FIELD_MESSAGES.descriptionRequired }],
      ],
      [
        'OTHER with a blank description',
        { ...PROFILE, hearAboutUs: 'OTHER', hearAboutUsDescription: '  ' },
        [{ name: 'hearAboutUsDescription', reason: FIELD_MESSAGES.descriptionRequired }],
      ],
    ];

    it.each(invalid)('refuses %s with the field names and writes nothing', async (_case, body, expected) => {
      const { sub, headers } = await newUser();
      const before = await storedUser(sub);
      const res = await call('PUT', '/user', headers, body);
      expect(res.statusCode).toBe(400);
      const problem = expectProblem(res);
      expect(problem.invalidParams).toEqual(expected);
      expect(problem.detail).toBe(expected[0]!.reason);
      expect(await storedUser(sub)).toEqual(before);
    });

    it('refuses a request without a body', async () => {
      const { headers } = await newUser();
      const res = await call('PUT', '/user', headers);
      expect(res.statusCode).toBe(400);
      expect(expectProblem(res).invalidParams?.length).toBeGreaterThan(0);
    });

    it('lets names change before identity verification is complete', async () => {
      const { sub, headers } = await newUser();
      await call('PUT', '/user', headers, PROFILE);
      await t.db.db.update(users).set({ kycStatus: 'PENDING' }).where(eq(users.id, sub));
      const res = await call('PUT', '/user', headers, { ...PROFILE, firstName: 'Augusta' });
      expect(res.statusCode).toBe(200);
      expect(ZUser.parse(res.json()).firstName).toBe('Augusta');
    });

    describe('after identity verification (spec §5)', () => {
      async function verifiedUser() {
        const session = await newUser();
        expect((await call('PUT', '/user', session.headers, PROFILE)).statusCode).toBe(200);
        await t.db.db.update(users).set({ kycStatus: 'VERIFIED' }).where(eq(users.id, session.sub));
        return session;
      }

      it('refuses a changed first name and writes none of the other fields either', async () => {
        const { sub, headers } = await verifiedUser();
        const before = await storedUser(sub);
        const res = await call('PUT', '/user', headers, {
          ...PROFILE,
          firstName: 'Augusta',
          organisationName: 'Somewhere else',
          industry: 'Energy',
        });
        expect(res.statusCode).toBe(409);
        const problem = expectProblem(res);
        expect(problem.invalidParams).toEqual([{ name: 'firstName', reason: FIELD_MESSAGES.namesLocked }]);
        expect(problem.detail).toBe(FIELD_MESSAGES.namesLocked);
        expect(await storedUser(sub)).toEqual(before);
      });

      it('names both fields when both names changed', async () => {
        const { sub, headers } = await verifiedUser();
        const before = await storedUser(sub);
        const res = await call('PUT', '/user', headers, { ...PROFILE, firstName: 'Augusta', lastName: 'King' });
        expect(res.statusCode).toBe(409);
        expect(expectProblem(res).invalidParams).toEqual([
          { name: 'firstName', reason: FIELD_MESSAGES.namesLocked },
          { name: 'lastName', reason: FIELD_MESSAGES.namesLocked },
        ]);
        expect(await storedUser(sub)).toEqual(before);
      });

      it('still saves the other fields when the names are unchanged', async () => {
        const { sub, headers } = await verifiedUser();
        const res = await call('PUT', '/user', headers, { ...PROFILE, industry: 'Energy', companySize: '1000+' });
        expect(res.statusCode).toBe(200);
        expect(ZUser.parse(res.json())).toMatchObject({
          firstName: 'Ada',
          lastName: 'Lovelace',
          industry: 'Energy',
          companySize: '1000+',
          onfidoApplicantStatus: 'VERIFIED',
        });
        expect((await storedUser(sub)).account.industry).toBe('Energy');
      });
    });
  });

  describe('PUT /user/company-details', () => {
    it("saves the account's business details and leaves the names alone", async () => {
      const { sub, headers } = await newUser();
      await call('PUT', '/user', headers, PROFILE);
      const res = await call('PUT', '/user/company-details', headers, COMPANY);
      expect(res.statusCode).toBe(200);
      expect(ZUser.parse(res.json())).toMatchObject({ ...COMPANY, firstName: 'Ada', lastName: 'Lovelace' });
      expect((await storedUser(sub)).account).toMatchObject(COMPANY);
    });

    it.each([
      ['a missing industry', { ...COMPANY, industry: undefined }, 'industry', FIELD_MESSAGES.required],
      [
        'a too long location',
        { ...COMPANY, organisationLocation: 'x'.repeat(101) },
        'organisationLocation',
        FIELD_MESSAGES.tooLong(100),
      ],
      ['a number for a name', { ...COMPANY, organisationName: 7 }, 'organisationName', FIELD_MESSAGES.required],
    ])('refuses %s and writes nothing', async (_case, body, name, reason) => {
      const { sub, headers } = await newUser();
      const before = await storedUser(sub);
      const res = await call('PUT', '/user/company-details', headers, body);
      expect(res.statusCode).toBe(400);
      expect(expectProblem(res).invalidParams).toEqual([{ name, reason }]);
      expect(await storedUser(sub)).toEqual(before);
    });
  });

  describe('PUT /user/settings', () => {
    it('switches promotional emails on and off', async () => {
      const { sub, headers } = await newUser();
      const on = await call('PUT', '/user/settings', headers, { promotionalEmails: true });
      expect(on.statusCode).toBe(200);
      expect(ZUser.parse(on.json()).promotionalEmails).toBe(true);
      expect((await storedUser(sub)).user.promotionalEmails).toBe(true);
      const off = await call('PUT', '/user/settings', headers, { promotionalEmails: false });
      expect(ZUser.parse(off.json()).promotionalEmails).toBe(false);
      expect((await storedUser(sub)).user.promotionalEmails).toBe(false);
    });

    it.each([
      ['a string', { promotionalEmails: 'yes' }],
      ['nothing', {}],
    ])('refuses %s for the preference and writes nothing', async (_case, body) => {
      const { sub, headers } = await newUser();
      const before = await storedUser(sub);
      const res = await call('PUT', '/user/settings', headers, body);
      expect(res.statusCode).toBe(400);
      expect(expectProblem(res).invalidParams?.map((p) => p.name)).toEqual(['promotionalEmails']);
      expect(await storedUser(sub)).toEqual(before);
    });
  });

  describe('GET /user/mfa-status', () => {
    const setIdentityMfa = (sub: string, values: Partial<typeof idpUsers.$inferInsert>) =>
      t.db.db.update(idpUsers).set(values).where(eq(idpUsers.sub, sub));

    it('reports DISABLED for a user without an authenticator', async () => {
      const { headers } = await newUser();
      const res = await call('GET', '/user/mfa-status', headers);
      expect(res.statusCode).toBe(200);
      expect(ZMfaStatus.parse(res.json())).toEqual({ mfaSetup: false, mfaConfirm: false, userMfaStatus: 'DISABLED' });
    });

    it("copies the identity provider's state onto the portal user", async () => {
      const { sub, headers } = await newUser();
      await setIdentityMfa(sub, { totpVerified: true, mfaEnabled: true, mfaPreferred: true });
      const active = await call('GET', '/user/mfa-status', headers);
      expect(ZMfaStatus.parse(active.json())).toEqual({ mfaSetup: true, mfaConfirm: true, userMfaStatus: 'ACTIVE' });
      expect((await storedUser(sub)).user).toMatchObject({ mfaSetup: true, mfaConfirm: true });
      const user = ZUser.parse((await call('GET', `/user/${sub}`, headers)).json());
      expect(user).toMatchObject({ mfaSetup: true, mfaConfirm: true, userMfaStatus: 'ACTIVE' });

      // Verified but no longer preferred (the user switched MFA off elsewhere): the portal follows.
      await setIdentityMfa(sub, { mfaEnabled: false, mfaPreferred: false });
      const setup = await call('GET', '/user/mfa-status', headers);
      expect(ZMfaStatus.parse(setup.json())).toEqual({ mfaSetup: true, mfaConfirm: false, userMfaStatus: 'SETUP' });
      expect((await storedUser(sub)).user).toMatchObject({ mfaSetup: true, mfaConfirm: false });

      // An administrator reset the authenticator.
      await setIdentityMfa(sub, { totpVerified: false });
      const reset = await call('GET', '/user/mfa-status', headers);
      expect(ZMfaStatus.parse(reset.json()).userMfaStatus).toBe('DISABLED');
      expect((await storedUser(sub)).user).toMatchObject({ mfaSetup: false, mfaConfirm: false });
    });

    it('answers 401, not 500, when the identity user no longer exists', async () => {
      const { sub, headers } = await newUser();
      await t.db.db.delete(idpUsers).where(eq(idpUsers.sub, sub));
      const res = await call('GET', '/user/mfa-status', headers);
      expect(res.statusCode).toBe(401);
      expectProblem(res);
    });
  });

  describe('terms and conditions', () => {
    const acceptances = (userId: string) =>
      t.db.db.select().from(termsAcceptances).where(eq(termsAcceptances.userId, userId));

    it('publishes the latest version', async () => {
      const { headers } = await newUser();
      const res = await call('GET', '/terms-conditions/version', headers);
      expect(res.statusCode).toBe(200);
      const terms = ZTermsVersion.parse(res.json());
      expect(terms).toMatchObject({ version: LATEST_TERMS.version, title: LATEST_TERMS.title, url: LATEST_TERMS.url });
      expect(terms.publishedAt).toBe(`${LATEST_TERMS.version}T00:00:00.000Z`);
    });

    it('records acceptance of the latest version, once however often it is sent', async () => {
      const { sub, headers } = await newUser();
      const first = await call('POST', '/terms-conditions', headers, { version: LATEST_TERMS.version });
      expect(first.statusCode).toBe(200);
      expect(ZUser.parse(first.json())).toMatchObject({
        acceptedTerms: true,
        acceptedTermsVersion: LATEST_TERMS.version,
        latestTerms: LATEST_TERMS.version,
      });
      const [recorded] = await acceptances(sub);
      const again = await call('POST', '/terms-conditions', headers, { version: LATEST_TERMS.version });
      expect(again.statusCode).toBe(200);
      expect(ZUser.parse(again.json()).acceptedTerms).toBe(true);
      expect(await acceptances(sub)).toEqual([recorded]);
    });

    it('refuses an older version with the outdated-terms message and records nothing', async () => {
      await t.db.db
        .insert(termsVersions)
        .values({
          version: '2020-01-01',
          title: 'Old terms',
          url: 'https://example.com/old',
          publishedAt: new Date('2020-01-01'),
        })
        .onConflictDoNothing();
      const { sub, headers } = await newUser();
      for (const version of ['2020-01-01', 'no-such-version']) {
        const res = await call('POST', '/terms-conditions', headers, { version });
        expect(res.statusCode).toBe(400);
        const problem = expectProblem(res);
        expect(problem.invalidParams).toEqual([{ name: 'version', reason: FIELD_MESSAGES.termsOutdated }]);
        expect(problem.detail).toBe(FIELD_MESSAGES.termsOutdated);
      }
      expect(await acceptances(sub)).toEqual([]);
    });

    it.each([
      ['no version', {}, FIELD_MESSAGES.required],
      ['a blank version', { version: ' ' }, FIELD_MESSAGES.required],
      ['a too long version', { version: 'v'.repeat(51) }, FIELD_MESSAGES.tooLong(50)],
      ['a number', { version: 2026 }, FIELD_MESSAGES.required],
    ])('refuses %s and records nothing', async (_case, body, reason) => {
      const { sub, headers } = await newUser();
      const res = await call('POST', '/terms-conditions', headers, body);
      expect(res.statusCode).toBe(400);
      expect(expectProblem(res).invalidParams).toEqual([{ name: 'version', reason }]);
      expect(await acceptances(sub)).toEqual([]);
    });

    // Publishes new terms for the whole database, so it runs last in this file.
    it('asks again once newer terms are published', async () => {
      const { sub, headers } = await newUser();
      await call('POST', '/terms-conditions', headers, { version: LATEST_TERMS.version });
      const newer = {
        version: '2099-01-01',
        title: 'Terms',
        url: 'https://example.com/terms',
        publishedAt: new Date('2099-01-01'),
      };
      await t.db.db.insert(termsVersions).values(newer);

      const user = ZUser.parse((await call('GET', `/user/${sub}`, headers)).json());
      expect(user).toMatchObject({
        acceptedTerms: false,
        acceptedTermsVersion: LATEST_TERMS.version,
        latestTerms: newer.version,
      });
      expect(ZTermsVersion.parse((await call('GET', '/terms-conditions/version', headers)).json()).version).toBe(
        newer.version,
      );
      const stale = await call('POST', '/terms-conditions', headers, { version: LATEST_TERMS.version });
      expect(stale.statusCode).toBe(400);
      const accepted = await call('POST', '/terms-conditions', headers, { version: newer.version });
      expect(ZUser.parse(accepted.json())).toMatchObject({ acceptedTerms: true, acceptedTermsVersion: newer.version });
      const rows = await t.db.db
        .select()
        .from(termsAcceptances)
        .where(and(eq(termsAcceptances.userId, sub), eq(termsAcceptances.version, newer.version)));
      expect(rows).toHaveLength(1);
    });
  });
});
