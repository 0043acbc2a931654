import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha, ZCaptchaChallenge } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { AltchaVerifier, captchaKey } from '../../lib/captcha.ts';

describe('GET /api/connect/captcha/challenge', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('answers anyone with a fresh, uncached challenge signed with the server’s key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/connect/captcha/challenge' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const challenge = ZCaptchaChallenge.parse(res.json());
    expect(challenge.maxnumber).toBe(50_000);

    const again = ZCaptchaChallenge.parse(
      (await t.app.inject({ method: 'GET', url: '/api/connect/captcha/challenge' })).json(),
    );
    expect(again.challenge).not.toBe(challenge.challenge);

    // The testConfig SECRET_KEY signs it, so the sign-up verifier of the same server accepts it.
    const verifier = new AltchaVerifier(captchaKey('test-secret-key'));
    expect(await verifier.verify(await solveCaptcha(challenge))).toBe(true);
  });

  it('is declared public and documented under the connect tag', async () => {
    const route = t.app.routeAccess.find((r) => r.method === 'GET' && r.url === '/api/connect/captcha/challenge');
    expect(route?.access).toBe('public');
    const docs = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { get?: { tags?: string[] } }>;
    };
    expect(docs.paths['/api/connect/captcha/challenge']?.get?.tags).toEqual(['connect']);
  });
});
