import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

describe('the API reference at /api/docs (issue 11: a clean console)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('runs under the site’s CSP, which allows the style attributes Swagger UI sets as it renders', async () => {
    const site = (await t.app.inject('/login')).headers['content-security-policy'];
    for (const url of [
      '/api/docs',
      '/api/docs/',
      '/api/docs/static/swagger-ui-bundle.js',
      '/api/docs/static/index.css',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBeLessThan(400);
      expect(res.headers['content-security-policy'], url).toBe(site);
    }
    expect(site).toMatch(/style-src 'self' 'unsafe-inline'/);
    // Scripts stay as strict as everywhere else.
    expect(site).toMatch(/script-src 'self'(;|$)/);
  });
});
