import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProblem } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../test/helpers.ts';

// One app for both groups: every case is a single request that changes nothing.
let t: TestContext;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  headers = (await signInAs(t)).headers;
});
afterAll(() => t?.close());

/** Refusals Fastify makes before any route runs answer problem details too (issue 11 §4). */
describe('problem details for the router’s own refusals', () => {
  it.each([
    ['POST', `/api/gateway/${'n'.repeat(3000)}`],
    ['DELETE', `/api/application-manager/application/${'a'.repeat(3000)}`],
  ] as const)('%s with a 3,000-character path parameter answers 414 problem details', async (method, url) => {
    const res = await t.app.inject({ method, url, headers, payload: {} });
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = ZProblem.parse(res.json());
    expect(problem).toMatchObject({ status: 414, title: 'URI Too Long' });
    expect(res.headers['x-request-id']).toBe(problem.requestId);
  });

  it('answers 400 problem details for a path parameter that is not valid percent-encoding', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tokenise/token/%zz', headers });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(ZProblem.parse(res.json())).toMatchObject({ status: 400, title: 'Bad Request' });
  });
});

/** Every refusal names its code (packages/shared problem-codes.ts); the SPA decides from it. */
describe('problem codes', () => {
  it.each([
    [
      'no access token',
      { method: 'GET', url: '/api/tokenise/v2/orchestration/locations', headers: { authorization: '' } },
      401,
      'UNAUTHORIZED',
    ],
    [
      'a token that is not a JWT',
      { method: 'GET', url: '/api/tokenise/v2/orchestration/locations', headers: { authorization: 'Bearer x.y.z' } },
      401,
      'TOKEN_INVALID',
    ],
    ['an unknown route', { method: 'GET', url: '/api/connect/no-such-route' }, 404, 'ROUTE_NOT_FOUND'],
    [
      'malformed JSON',
      {
        method: 'POST',
        url: '/api/connect/contact-us-authorise',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      },
      400,
      'MALFORMED_REQUEST',
    ],
    [
      'an unsupported content type',
      {
        method: 'POST',
        url: '/api/connect/contact-us-authorise',
        headers: { 'content-type': 'text/csv' },
        payload: 'a,b',
      },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  ] as const)('answers %s with its code', async (_, request, status, code) => {
    const res = await t.app.inject({
      ...request,
      headers: { ...headers, ...('headers' in request ? request.headers : {}) },
    } as never);
    expect(res.statusCode).toBe(status);
    expect(ZProblem.parse(res.json())).toMatchObject({ status, code });
  });

  it('answers a validation failure with INVALID_REQUEST and the failing fields', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/integrate/v2/user-networks?networkType=sideways',
      headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_REQUEST', invalidParams: [{ name: 'networkType' }] });
  });

  it('answers a service’s refusal with the code that names it', async () => {
    const me = await signInAs(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/connect/user/${crypto.randomUUID()}`,
      headers: me.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'USER_NOT_FOUND', detail: 'The user was not found.' });
  });
});
