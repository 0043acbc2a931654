import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProblem } from '@connect/shared';
import { createTestApp, signInAs, TEST_CLIENT_ID, type TestContext } from '../../test/helpers.ts';
import { changedTables, tableSnapshotter, type TableSnapshot } from '../../test/table-snapshot.ts';

const NUL = 'a\u0000b';

/** Issue 11 §3: a NUL byte in any string the API accepts is refused before it reaches the database. */
describe('input guard: NUL bytes', () => {
  let t: TestContext;
  let headers: { authorization: string };
  let snapshot: () => Promise<TableSnapshot>;
  beforeAll(async () => {
    t = await createTestApp();
    const session = await signInAs(t);
    headers = session.headers;
    // The first authenticated request creates the portal user; made here so the cases write nothing.
    expect((await t.app.inject({ method: 'GET', url: `/api/connect/user/${session.sub}`, headers })).statusCode).toBe(
      200,
    );
    snapshot = tableSnapshotter(t.db);
  });
  afterAll(() => t?.close());

  const profile = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    organisationName: 'Engines',
    organisationLocation: 'London',
    industry: 'Computing',
    companySize: '1-10',
    hearAboutUs: 'SEARCH_ENGINE',
  };

  type Case = [label: string, request: () => InjectOptions, field: string];
  const cases: Case[] = [
    [
      'a support enquiry',
      () => ({
        method: 'POST',
        url: '/api/connect/contact-us-form',
        headers,
        payload: { name: 'Ada', email: 'ada@example.com', company: 'E', subject: 'Hi', description: NUL },
      }),
      'description',
    ],
    [
      'an authorise enquiry',
      () => ({
        method: 'POST',
        url: '/api/connect/contact-us-authorise',
        headers,
        payload: { name: NUL, email: 'ada@example.com', company: 'E', description: 'Approvals please.' },
      }),
      'name',
    ],
    [
      'the profile',
      () => ({ method: 'PUT', url: '/api/connect/user', headers, payload: { ...profile, firstName: NUL } }),
      'firstName',
    ],
    [
      'company details',
      () => ({
        method: 'PUT',
        url: '/api/connect/user/company-details',
        headers,
        payload: { organisationName: NUL, organisationLocation: 'London', industry: 'Computing', companySize: '1-10' },
      }),
      'organisationName',
    ],
    [
      'a search in the query string',
      () => ({ method: 'GET', url: '/api/application-manager/applications?search=a%00b', headers }),
      'search',
    ],
    [
      'a search in a body',
      () => ({ method: 'POST', url: '/api/tokenise/tokens', headers, payload: { search: NUL } }),
      'search',
    ],
    ['a path id', () => ({ method: 'GET', url: '/api/tokenise/token/%00', headers }), 'id'],
    [
      'a nested value',
      () => ({
        method: 'POST',
        url: '/api/application-manager/create-application',
        headers,
        payload: { name: 'App', applicationType: 'testnet', networkIds: ['x', NUL] },
      }),
      'networkIds.1',
    ],
    [
      'a key of an object',
      () => ({ method: 'PUT', url: '/api/connect/user', headers, payload: { ...profile, [NUL]: 'x' } }),
      'a\\u0000b',
    ],
    [
      'client_id at /oauth2/token, form-encoded',
      () => ({
        method: 'POST',
        url: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=a%00b&client_secret=s',
      }),
      'client_id',
    ],
    [
      'client_id at /oauth2/token, as JSON',
      () => ({
        method: 'POST',
        url: '/oauth2/token',
        payload: { grant_type: 'client_credentials', client_id: NUL, client_secret: 's' },
      }),
      'client_id',
    ],
  ];

  it.each(cases)(
    'refuses a NUL byte in %s with 400 naming the field, and writes nothing',
    async (_label, request, field) => {
      const before = await snapshot();
      const res = await t.app.inject(request());
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = ZProblem.parse(res.json());
      expect(problem.invalidParams).toEqual([{ name: field, reason: expect.stringContaining('NUL') }]);
      expect(changedTables(before, await snapshot())).toEqual([]);
    },
  );

  it('lets the same requests through without the NUL byte (the guard refuses nothing else)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/application-manager/applications?search=ab', headers });
    expect(res.statusCode).toBe(200);
    const form = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=ab&client_secret=s',
    });
    expect(form.statusCode).toBe(401);
  });

  it('walks a deeply nested body without overflowing the stack', async () => {
    const depth = 200_000;
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/connect/user',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: `${'['.repeat(depth)}"${'\\u0000'}"${']'.repeat(depth)}`,
    });
    expect(res.statusCode).toBe(400);
    expect(ZProblem.parse(res.json()).status).toBe(400);
  });

  it('refuses a NUL byte in a username on /idp with Cognito’s InvalidParameterException', async () => {
    const before = await snapshot();
    const res = await t.app.inject({
      method: 'POST',
      url: '/idp',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
      },
      payload: JSON.stringify({ ClientId: TEST_CLIENT_ID, Username: NUL, Password: 'Correct-Horse-1' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-amzn-errortype']).toBe('InvalidParameterException');
    expect(res.json()).toEqual({
      __type: 'InvalidParameterException',
      message: expect.stringMatching(/^1 validation error detected: Value at 'username' .*NUL/),
    });
    expect(changedTables(before, await snapshot())).toEqual([]);
  });
});
