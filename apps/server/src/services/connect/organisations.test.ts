import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, users } from '@connect/db';
import {
  COMPANY_SIZES,
  HEAR_ABOUT_US,
  INDUSTRIES,
  ORGANISATION_SEARCH_MESSAGES,
  ZOrganisationSearchResponse,
  ZOrganisationStaticData,
  ZProblem,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { ORGANISATION_SEARCHES_PER_MINUTE } from './organisation-routes.ts';
import { TEST_PROFILE } from './testing.ts';

type Session = Awaited<ReturnType<typeof signInAs>>;

/** GET /static-data/organisations and GET /organisations (issue 35 §2). */
describe('connect service: organisations', () => {
  let t: TestContext;
  let caller: Session;
  beforeAll(async () => {
    t = await createTestApp();
    caller = await signInAs(t);
    expect((await get(`/user/${caller.sub}`, caller)).statusCode).toBe(200);
  });
  afterAll(() => t?.close());

  function get(url: string, session?: Session, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: 'GET',
      url: `/api/connect${url}`,
      headers: { ...(session ? session.headers : {}), ...headers },
    });
  }

  /** A signed-in customer whose profile names `organisationName`; answers its session and account. */
  async function registered(organisationName: string, email?: string) {
    const session = await signInAs(t, email ? { email } : {});
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/connect/user',
      headers: session.headers,
      payload: { ...TEST_PROFILE, organisationName, organisationLocation: 'Secret Street 1, Leeds' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { session, accountId: res.json<{ accountId: string }>().accountId };
  }

  const search = async (term: string, session: Session = caller) => {
    const res = await get(`/organisations?search=${encodeURIComponent(term)}`, session);
    expect(res.statusCode, res.body).toBe(200);
    return ZOrganisationSearchResponse.parse(res.json()).organisations.map((o) => o.name);
  };

  describe('GET /static-data/organisations', () => {
    it('answers the lists the profile schemas validate with', async () => {
      const res = await get('/static-data/organisations', caller);
      expect(res.statusCode).toBe(200);
      const data = ZOrganisationStaticData.parse(res.json());
      expect(data.industries).toEqual([...INDUSTRIES]);
      expect(data.companySizes).toEqual([...COMPANY_SIZES]);
      expect(data.hearAboutUs.map((answer) => answer.value)).toEqual([...HEAR_ABOUT_US]);
      expect(data.hearAboutUs.filter((answer) => answer.descriptionRequired).map((answer) => answer.value)).toEqual([
        'EVENT',
        'OTHER',
      ]);
    });

    it('is cached and tagged: a matching If-None-Match answers 304 without a body', async () => {
      const first = await get('/static-data/organisations', caller);
      expect(first.headers['cache-control']).toBe('private, max-age=3600');
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await get('/static-data/organisations', caller, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const weak = await get('/static-data/organisations', caller, { 'if-none-match': `"other", W/${etag}` });
      expect(weak.statusCode).toBe(304);
      const stale = await get('/static-data/organisations', caller, { 'if-none-match': '"something-else"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toEqual(first.json());
    });

    it('needs a signed-in user, but not a complete profile', async () => {
      expect((await get('/static-data/organisations')).statusCode).toBe(401);
      const newcomer = await signInAs(t);
      expect((await get('/static-data/organisations', newcomer)).statusCode).toBe(200);
    });
  });

  describe('GET /organisations', () => {
    it('finds a registered organisation by part of its name, ignoring case, names only', async () => {
      await registered('Acme Widgets Ltd');
      const res = await get('/organisations?search=WIDGET', caller);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ organisations: [{ name: 'Acme Widgets Ltd' }] });
      // Nothing else of the account: no ids, locations, people.
      expect(res.body).not.toMatch(/Secret Street|accountId|@/);
    });

    it('answers each name once, in the spelling most accounts use, names starting with the term first', async () => {
      await registered('Zebracorp Holdings');
      await registered('zebracorp holdings');
      await registered('Zebracorp Holdings');
      await registered('The Zebracorp Trust');
      expect(await search('zebracorp')).toEqual(['Zebracorp Holdings', 'The Zebracorp Trust']);
    });

    it('matches 2 characters at the start of a name only', async () => {
      await registered('Qx Analytics');
      await registered('Data Qx Labs');
      expect(await search('qx')).toEqual(['Qx Analytics']);
      expect(await search('qx a')).toEqual(['Qx Analytics']);
      expect(await search('qx l')).toEqual(['Data Qx Labs']);
    });

    it('finds nothing by an owner’s email or name, which the staff index also holds', async () => {
      await registered('Plain Name Ltd', `owner-${randomUUID()}@hiddenmatch.example`);
      expect(await search('hiddenmatch')).toEqual([]);
      // TEST_PROFILE's owner is Ada Lovelace: her name finds no organisation.
      expect(await search('lovelace')).toEqual([]);
    });

    it('leaves out removed accounts and staff organisations', async () => {
      const { accountId } = await registered('Vanished Vortex Ltd');
      await t.db.db.update(accounts).set({ status: 'REMOVED' }).where(eq(accounts.id, accountId));
      expect(await search('vanished vortex')).toEqual([]);

      const staff = await signInAs(t, { role: 'QUANT_ADMIN' });
      const [staffUser] = await t.db.db.select().from(users).where(eq(users.id, staff.sub));
      await t.db.db
        .update(accounts)
        .set({ organisationName: 'Staffhouse Internal' })
        .where(eq(accounts.id, staffUser!.accountId));
      expect(await search('staffhouse')).toEqual([]);
    });

    it('treats % and _ as the characters they are', async () => {
      await registered('Percent 100% Ltd');
      expect(await search('100%')).toEqual(['Percent 100% Ltd']);
      expect(await search('p_rcent')).toEqual([]);
    });

    it('answers at most 10 names', async () => {
      for (let i = 0; i < 12; i++) await registered(`Manyfold Partner ${String(i).padStart(2, '0')}`);
      const names = await search('manyfold');
      expect(names).toHaveLength(10);
      expect(names[0]).toBe('Manyfold Partner 00');
    });

    it.each([
      ['no search', '/organisations', 'search'],
      ['1 character', '/organisations?search=a', 'search'],
      ['2 characters after trimming spaces', '/organisations?search=%20a%20', 'search'],
      ['over 100 characters', `/organisations?search=${'a'.repeat(101)}`, 'search'],
    ])('refuses %s with invalidParams', async (_case, url, field) => {
      const res = await get(url, caller);
      expect(res.statusCode).toBe(400);
      const problem = ZProblem.parse(res.json());
      expect(problem.invalidParams?.[0]?.name).toBe(field);
    });

    it('says how short is too short', async () => {
      const res = await get('/organisations?search=a', caller);
      expect(ZProblem.parse(res.json()).invalidParams?.[0]?.reason).toBe(ORGANISATION_SEARCH_MESSAGES.tooShort);
    });

    it('needs a signed-in user, but not a complete profile', async () => {
      expect((await get('/organisations?search=acme')).statusCode).toBe(401);
      const newcomer = await signInAs(t);
      expect(await search('acme widgets', newcomer)).toEqual(['Acme Widgets Ltd']);
    });

    it(`answers 429 after ${ORGANISATION_SEARCHES_PER_MINUTE} searches a minute from one address`, async () => {
      const own = await createTestApp();
      try {
        const session = await signInAs(own);
        const statuses: number[] = [];
        for (let i = 0; i <= ORGANISATION_SEARCHES_PER_MINUTE; i++) {
          const res = await own.app.inject({
            method: 'GET',
            url: '/api/connect/organisations?search=ac',
            headers: session.headers,
          });
          statuses.push(res.statusCode);
        }
        expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
        expect(statuses.at(-1)).toBe(429);
      } finally {
        await own.close();
      }
    });
  });
});
