import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProblem } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../test/helpers.ts';

/** Refusals Fastify makes before any route runs answer problem details too (issue 11 §4). */
describe('problem details for the router’s own refusals', () => {
  let t: TestContext;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    headers = (await signInAs(t)).headers;
  });
  afterAll(() => t?.close());

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
