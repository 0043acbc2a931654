import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signInAs, type TestContext } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { createTestDatabase } from '@connect/db/testing';
import { testConfig } from '../../test/helpers.ts';

describe('deny-by-default access', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('every registered route declares public, user or role groups', () => {
    expect(t.app.routeAccess.length).toBeGreaterThan(10);
    const undeclared = t.app.routeAccess.filter((route) => route.access === undefined);
    expect(undeclared).toEqual([]);
  });

  it('refuses to start when a route declares no access level', async () => {
    const db = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), db, logger: false });
    app.get('/api/connect/forgotten', async () => ({ leaked: true }));
    await expect(app.ready()).rejects.toThrow(/GET \/api\/connect\/forgotten/);
    await app.close().catch(() => undefined);
    await db.close();
  });

  it('rejects user routes without a valid bearer token', async () => {
    const userRoutes = t.app.routeAccess.filter((route) => route.access !== 'public' && route.method === 'GET');
    for (const route of userRoutes) {
      const url = route.url.replace(/:[^/]+/g, '00000000-0000-4000-8000-000000000000');
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: 'Bearer not-a-token' } });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('accepts a token from the pool and creates the portal user on first use', async () => {
    const user = await signInAs(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/status', headers: user.headers });
    expect(res.statusCode).toBe(200);
  });
});
