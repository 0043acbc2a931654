import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZRuntimeConfig } from '@connect/shared';
import { createTestApp, type TestContext } from '../../test/helpers.ts';

/** The directive's sources, e.g. `connect-src` → ["'self'", …]. */
function directive(csp: string, name: string): string[] {
  const found = csp.split(';').find((part) => part.trim().startsWith(`${name} `));
  return found ? found.trim().split(/\s+/).slice(1) : [];
}

describe('the portal at any host (issue 11 item 6)', () => {
  let t: TestContext;
  beforeAll(async () => {
    // PUBLIC_URL names one host; the portal is opened at another (127.0.0.1, a LAN address, a proxy).
    t = await createTestApp({ PUBLIC_URL: 'http://localhost:8080' });
  });
  afterAll(() => t?.close());

  it('names the embedded pool by a path on the portal’s own origin, not by PUBLIC_URL’s host', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/runtime-config.json',
      headers: { host: '127.0.0.1:8080' },
    });
    const { identity } = ZRuntimeConfig.parse(res.json());
    expect(identity.userPoolEndpoint).toBe('/idp');
    expect(res.body).not.toContain('localhost');
  });

  it('lets the page reach the pool on its own origin: connect-src names no host', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login', headers: { host: '127.0.0.1:8080' } });
    const csp = res.headers['content-security-policy'] as string;
    expect(directive(csp, 'connect-src')).toEqual(["'self'"]);
    expect(csp).not.toContain('localhost');
  });

  it('keeps AWS Cognito’s endpoint out of the runtime configuration and in connect-src', async () => {
    const cognito = await createTestApp({
      COGNITO_REGION: 'eu-west-1',
      COGNITO_USER_POOL_ID: 'eu-west-1_Abc',
      COGNITO_CLIENT_ID: 'client',
    });
    try {
      const { identity } = ZRuntimeConfig.parse((await cognito.app.inject('/runtime-config.json')).json());
      expect(identity.userPoolEndpoint).toBeUndefined();
      const csp = (await cognito.app.inject('/login')).headers['content-security-policy'] as string;
      expect(directive(csp, 'connect-src')).toEqual(["'self'", 'https://cognito-idp.eu-west-1.amazonaws.com']);
    } finally {
      await cognito.close();
    }
  });
});
