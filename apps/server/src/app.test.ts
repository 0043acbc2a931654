import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProblem, ZRuntimeConfig } from '@connect/shared';
import { createTestApp, TEST_CLIENT_ID, TEST_POOL_ID, type TestContext } from '../test/helpers.ts';

describe('platform', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('reports health with the database reachable and the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: { status: 'up' }, version: expect.any(String) });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves runtime configuration for the SPA', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/runtime-config.json' });
    const body = ZRuntimeConfig.parse(res.json());
    expect(body.identity).toEqual({
      region: 'us-east-1',
      userPoolId: TEST_POOL_ID,
      userPoolClientId: TEST_CLIENT_ID,
      userPoolEndpoint: '/idp',
    });
    expect(body.services).toContain('connect');
    expect(body.sandboxes).toEqual({ identity: true, mail: true, kyc: true });
    expect(body.productSlug).toBe('quant');
  });

  it('answers unknown API routes with a 404 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(ZProblem.parse(res.json())).toMatchObject({ status: 404, title: 'Not Found' });
    const post = await t.app.inject({ method: 'POST', url: '/api/unknown', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('serves the SPA with history-mode fallback and cacheable hashed assets', async () => {
    const deep = await t.app.inject({ method: 'GET', url: '/my-applications/register-new-application' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<div id="root">');
    expect(deep.headers['cache-control']).toBe('no-cache');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingAsset = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
    const traversal = await t.app.inject({ method: 'GET', url: '/..%2F..%2Fpackage.json' });
    expect(traversal.statusCode).toBe(404);
  });

  it('sends security headers with a CSP that allows only its own origin for scripts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('allows Onfido’s web SDK in the CSP only when identity verification runs on Onfido', async () => {
    const csp = (await t.app.inject({ method: 'GET', url: '/login' })).headers['content-security-policy'] as string;
    expect(csp).not.toContain('onfido.com');
    const onfido = await createTestApp({ ONFIDO_API_TOKEN: 'api_sandbox.test-token' });
    try {
      const withOnfido = (await onfido.app.inject({ method: 'GET', url: '/login' })).headers[
        'content-security-policy'
      ] as string;
      expect(withOnfido).toMatch(/script-src [^;]*https:\/\/sdk\.onfido\.com/);
      expect(withOnfido).toMatch(/frame-src [^;]*https:\/\/sdk\.onfido\.com/);
      expect(withOnfido).toMatch(/connect-src [^;]*https:\/\/\*\.onfido\.com/);
    } finally {
      await onfido.close();
    }
  });

  it('publishes an OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/health');
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });

  it('answers malformed JSON with a 400 problem, never a 500', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/connect/user',
      headers: { 'content-type': 'application/json' },
      payload: '{"firstName":',
    });
    expect([400, 401]).toContain(res.statusCode);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});

/** A hashed build asset of the test fixture's web build (test/fixtures/web-dist). */
const ASSET = '/assets/app-abc123.js';

describe('service switches and rate limits', () => {
  it('serves only the services named in SERVICES', async () => {
    const t = await createTestApp({ SERVICES: 'connect,payment' });
    try {
      const config = ZRuntimeConfig.parse((await t.app.inject({ method: 'GET', url: '/runtime-config.json' })).json());
      expect(config.services).toEqual(['connect', 'payment']);
      expect((await t.app.inject({ method: 'GET', url: '/api/payment/status' })).statusCode).toBe(200);
      const off = await t.app.inject({ method: 'GET', url: '/api/integrate/status' });
      expect(off.statusCode).toBe(404);
      expect(off.headers['content-type']).toContain('application/problem+json');
    } finally {
      await t.close();
    }
  });

  it('refuses an unknown service name at start-up', async () => {
    await expect(createTestApp({ SERVICES: 'connect,teleport' })).rejects.toThrow(/unknown services teleport/);
  });

  it('answers 429 problem details past the per-client limit', async () => {
    const t = await createTestApp({ RATE_LIMIT_MAX: '3' });
    try {
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push((await t.app.inject({ method: 'GET', url: '/api/connect/status' })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const limited = await t.app.inject({ method: 'GET', url: '/api/connect/status' });
      expect(limited.headers['content-type']).toContain('application/problem+json');
      expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    } finally {
      await t.close();
    }
  });

  it('does not count the hashed build assets, so page loads do not use up the limit', async () => {
    const t = await createTestApp({ RATE_LIMIT_MAX: '3' });
    try {
      const assets = [];
      for (let i = 0; i < 5; i++) assets.push((await t.app.inject({ method: 'GET', url: ASSET })).statusCode);
      expect(assets).toEqual([200, 200, 200, 200, 200]);
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await t.app.inject({ method: 'GET', url: '/' })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });

  // Shared counters need a Redis server: .ci/run's PostgreSQL pass sets REDIS_URL to the local one.
  it.runIf(Boolean(process.env.REDIS_URL))('shares rate-limit counters between nodes through Redis', async () => {
    const env = { RATE_LIMIT_MAX: '2', REDIS_URL: process.env.REDIS_URL! };
    const [a, b] = await Promise.all([createTestApp(env), createTestApp(env)]);
    try {
      // A unique client address, so earlier runs' counters in Redis do not interfere.
      const remoteAddress = `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.7`;
      const codes = [];
      for (const app of [a.app, b.app, a.app]) {
        codes.push((await app.inject({ method: 'GET', url: '/api/connect/status', remoteAddress })).statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
