import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpSigningKeys } from '@connect/db';
import { createTestApp, signInAs, TEST_CLIENT_ID, testConfig, type TestContext } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import type { App } from '../types.ts';

/**
 * Two nodes of one installation on one database, each with its own address (issue 31): a token
 * either issues verifies on both, and each reason a token is refused has its own code.
 */
describe('access tokens across the nodes of one installation', () => {
  let t: TestContext;
  let other: App;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://127.0.0.1:8081' });
    other = await buildApp({ config: testConfig({ PUBLIC_URL: 'http://127.0.0.1:8082' }), db: t.db, logger: false });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const me = (app: App, sub: string, authorization: string) =>
    app.inject({ method: 'GET', url: `/api/connect/user/${sub}`, headers: { authorization } });

  it('names the installation in every token, not the node that issued it', async () => {
    expect(t.app.deps.pool.installationUrl).toBe('http://127.0.0.1:8081');
    expect(other.deps.pool.installationUrl).toBe(t.app.deps.pool.installationUrl);
    expect(other.deps.pool.issuer).toBe(t.app.deps.pool.issuer);
  });

  it('accepts on the second node a token the first issued, and the other way round', async () => {
    const first = await signInAs(t);
    expect((await me(other, first.sub, first.headers.authorization)).statusCode).toBe(200);
    const second = await signInAs({ ...t, app: other });
    expect((await me(t.app, second.sub, second.headers.authorization)).statusCode).toBe(200);
  });

  describe('a refused token says why', () => {
    let sub: string;
    let sign: (claims: JWTPayload, options?: { expiresAt?: number; withOtherKey?: boolean }) => Promise<string>;

    beforeAll(async () => {
      ({ sub } = await signInAs(t));
      const [key] = await t.db.db.select().from(idpSigningKeys).where(eq(idpSigningKeys.active, true));
      const poolKey = await importJWK(JSON.parse(t.app.deps.box.open(key!.privateJwkEncrypted)) as JWK, 'RS256');
      const otherKey = (await generateKeyPair('RS256')).privateKey;
      const now = Math.floor(Date.now() / 1000);
      sign = (claims, options = {}) =>
        new SignJWT({
          sub,
          iss: t.app.deps.pool.issuer,
          client_id: TEST_CLIENT_ID,
          token_use: 'access',
          auth_time: now,
          jti: randomUUID(),
          username: sub,
          ...claims,
        })
          .setProtectedHeader({ alg: 'RS256', kid: key!.kid })
          .setIssuedAt(now - 7200)
          .setExpirationTime(options.expiresAt ?? now + 600)
          .sign(options.withOtherKey ? otherKey : poolKey);
    });

    const refusal = async (token: string) => {
      const res = await me(other, sub, `Bearer ${token}`);
      return { status: res.statusCode, code: (res.json() as { code: string }).code };
    };

    it('a well-formed token of the pool is accepted (the cases below differ from it in one claim)', async () => {
      expect((await me(other, sub, `Bearer ${await sign({})}`)).statusCode).toBe(200);
    });
    it('expired: TOKEN_EXPIRED, so the portal refreshes and tries again', async () => {
      const token = await sign({}, { expiresAt: Math.floor(Date.now() / 1000) - 60 });
      expect(await refusal(token)).toEqual({ status: 401, code: 'TOKEN_EXPIRED' });
    });
    it('from another issuer: TOKEN_WRONG_ISSUER', async () => {
      const token = await sign({ iss: `http://127.0.0.1:8082/idp/${t.app.deps.pool.poolId}` });
      expect(await refusal(token)).toEqual({ status: 401, code: 'TOKEN_WRONG_ISSUER' });
    });
    it('signed with a key the pool does not hold, or not a JWT at all: TOKEN_INVALID', async () => {
      expect(await refusal(await sign({}, { withOtherKey: true }))).toEqual({ status: 401, code: 'TOKEN_INVALID' });
      expect(await refusal('not.a.jwt')).toEqual({ status: 401, code: 'TOKEN_INVALID' });
    });
    it('an ID token, or a token of another app client: TOKEN_WRONG_USE', async () => {
      expect(await refusal(await sign({ token_use: 'id' }))).toEqual({ status: 401, code: 'TOKEN_WRONG_USE' });
      expect(await refusal(await sign({ client_id: 'another-client' }))).toEqual({
        status: 401,
        code: 'TOKEN_WRONG_USE',
      });
    });
  });
});
