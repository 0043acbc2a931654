import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applications, idpSigningKeys, idpUsers, users } from '@connect/db';
import { createTestApp, TEST_CLIENT_ID, testConfig, type TestContext } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { hashPassword } from '../lib/passwords.ts';
import { activate, addNetwork } from '../services/application-manager/testing.ts';
import type { App } from '../types.ts';

/**
 * Issue 11 item 1: a signed-out or revoked session's access tokens are refused by every /api route
 * at once on the node that heard of it and within about a second on the others, also while the
 * token sits in the verified-token cache. The pool is driven over its wire protocol (/idp).
 */

const PASSWORD = 'Correct-Horse-1';
type Tokens = { AccessToken: string; RefreshToken: string };

function wire(app: App, operation: string, body: unknown) {
  return app.inject({
    method: 'POST',
    url: '/idp',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    payload: JSON.stringify(body),
  });
}

async function signIn(app: App, email: string): Promise<Tokens> {
  const res = await wire(app, 'InitiateAuth', {
    ClientId: TEST_CLIENT_ID,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { AuthenticationResult: Tokens }).AuthenticationResult;
}

const bearer = (tokens: Tokens) => ({ authorization: `Bearer ${tokens.AccessToken}` });

describe('sign-out and revocation reach the API', () => {
  let t: TestContext;
  let network: { id: string };

  beforeAll(async () => {
    t = await createTestApp();
    network = await addNetwork(t);
  });
  afterAll(() => t?.close());

  /** A confirmed pool user with a password, whose portal user exists (made by the first request). */
  async function newUser() {
    const email = `user-${randomUUID()}@example.com`;
    const [row] = await t.db.db
      .insert(idpUsers)
      .values({
        username: email,
        email,
        emailVerified: true,
        status: 'CONFIRMED',
        passwordHash: await hashPassword(PASSWORD),
      })
      .returning();
    const sub = row!.sub;
    const first = await signIn(t.app, email);
    expect((await getUser(t.app, sub, first)).statusCode).toBe(200);
    const [user] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, sub));
    await activate(t, user!.accountId, network.id);
    return { email, sub, accountId: user!.accountId };
  }

  const getUser = (app: App, sub: string, tokens: Tokens) =>
    app.inject({ method: 'GET', url: `/api/connect/user/${sub}`, headers: bearer(tokens) });

  const createApplication = (app: App, tokens: Tokens) =>
    app.inject({
      method: 'POST',
      url: '/api/application-manager/create-application',
      headers: bearer(tokens),
      payload: {
        name: `App ${randomUUID().slice(0, 8)}`,
        callbackUrl: 'https://example.com/cb',
        applicationType: 'testnet',
        networkIds: [network.id],
      },
    });

  const applicationsOf = async (accountId: string) =>
    (await t.db.db.select().from(applications).where(eq(applications.accountId, accountId))).length;

  it('refuses the access token on every route after GlobalSignOut, though it was verified and cached just before', async () => {
    const { email, sub, accountId } = await newUser();
    const tokens = await signIn(t.app, email);
    expect((await getUser(t.app, sub, tokens)).statusCode).toBe(200);
    expect((await createApplication(t.app, tokens)).statusCode).toBe(201);

    const signOut = await wire(t.app, 'GlobalSignOut', { AccessToken: tokens.AccessToken });
    expect(signOut.statusCode, signOut.body).toBe(200);

    const read = await getUser(t.app, sub, tokens);
    expect(read.statusCode).toBe(401);
    expect(read.headers['content-type']).toContain('application/problem+json');
    expect((await createApplication(t.app, tokens)).statusCode).toBe(401);
    expect(await applicationsOf(accountId)).toBe(1);
    // Signing in again works at once.
    expect((await getUser(t.app, sub, await signIn(t.app, email))).statusCode).toBe(200);
  });

  it('refuses the tokens of every other session of the user after GlobalSignOut', async () => {
    const { email, sub } = await newUser();
    const phone = await signIn(t.app, email);
    const laptop = await signIn(t.app, email);
    expect((await getUser(t.app, sub, phone)).statusCode).toBe(200);
    expect((await wire(t.app, 'GlobalSignOut', { AccessToken: laptop.AccessToken })).statusCode).toBe(200);
    expect((await getUser(t.app, sub, phone)).statusCode).toBe(401);
  });

  it("RevokeToken refuses that sign-in's access tokens, not another sign-in's of the same user", async () => {
    const { email, sub } = await newUser();
    const revoked = await signIn(t.app, email);
    const other = await signIn(t.app, email);
    for (const tokens of [revoked, other]) expect((await getUser(t.app, sub, tokens)).statusCode).toBe(200);

    const res = await wire(t.app, 'RevokeToken', { ClientId: TEST_CLIENT_ID, Token: revoked.RefreshToken });
    expect(res.statusCode, res.body).toBe(200);

    expect((await getUser(t.app, sub, revoked)).statusCode).toBe(401);
    expect((await createApplication(t.app, revoked)).statusCode).toBe(401);
    expect((await getUser(t.app, sub, other)).statusCode).toBe(200);
    expect((await createApplication(t.app, other)).statusCode).toBe(201);
  });

  it('refuses a refreshed access token of a revoked sign-in (same origin_jti)', async () => {
    const { email, sub } = await newUser();
    const tokens = await signIn(t.app, email);
    const refreshed = await wire(t.app, 'InitiateAuth', {
      ClientId: TEST_CLIENT_ID,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
    });
    const next = { ...tokens, ...(refreshed.json() as { AuthenticationResult: Tokens }).AuthenticationResult };
    expect((await getUser(t.app, sub, next)).statusCode).toBe(200);
    expect(
      (await wire(t.app, 'RevokeToken', { ClientId: TEST_CLIENT_ID, Token: tokens.RefreshToken })).statusCode,
    ).toBe(200);
    expect((await getUser(t.app, sub, next)).statusCode).toBe(401);
  });

  it('signs out through the API: every session refused, refresh tokens revoked at the pool', async () => {
    const { email, sub } = await newUser();
    const here = await signIn(t.app, email);
    const elsewhere = await signIn(t.app, email);
    for (const tokens of [here, elsewhere]) expect((await getUser(t.app, sub, tokens)).statusCode).toBe(200);

    const res = await t.app.inject({ method: 'POST', url: '/api/connect/sign-out', headers: bearer(here) });
    expect(res.statusCode, res.body).toBe(204);

    for (const tokens of [here, elsewhere]) {
      expect((await getUser(t.app, sub, tokens)).statusCode).toBe(401);
      const refresh = await wire(t.app, 'GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: tokens.RefreshToken,
      });
      expect(refresh.json()).toMatchObject({ __type: 'NotAuthorizedException' });
    }
    // Signed out already: a second sign-out is refused like any other request of that session.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/connect/sign-out', headers: bearer(here) })).statusCode,
    ).toBe(401);
    expect((await getUser(t.app, sub, await signIn(t.app, email))).statusCode).toBe(200);
  });

  it('documents the sign-out route, requires a signed-in caller and refuses a body it does not take', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/connect/sign-out' })).statusCode).toBe(401);
    const { email, sub } = await newUser();
    const tokens = await signIn(t.app, email);
    const odd = await t.app.inject({
      method: 'POST',
      url: '/api/connect/sign-out',
      headers: bearer(tokens),
      payload: { global: 'everywhere' },
    });
    expect(odd.statusCode).toBe(400);
    expect(odd.json()).toMatchObject({ invalidParams: [{ name: 'body', reason: expect.stringContaining('global') }] });
    expect((await getUser(t.app, sub, tokens)).statusCode).toBe(200);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/connect/sign-out',
      headers: bearer(tokens),
      payload: {},
    });
    expect(empty.statusCode).toBe(204);
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    };
    const operation = spec.paths['/api/connect/sign-out']?.post;
    expect(operation?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(operation?.responses ?? {})).toContain('204');
  });

  it('refuses an access token without an expiry, signed with the pool’s own key', async () => {
    const { sub, email } = await newUser();
    const [key] = await t.db.db.select().from(idpSigningKeys).where(eq(idpSigningKeys.active, true));
    const privateKey = await importJWK(JSON.parse(t.app.deps.box.open(key!.privateJwkEncrypted)) as JWK, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      sub,
      iss: t.app.deps.pool.issuer,
      client_id: TEST_CLIENT_ID,
      origin_jti: randomUUID(),
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      auth_time: now,
      jti: randomUUID(),
      username: email,
    };
    const sign = (withExpiry: boolean) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: key!.kid }).setIssuedAt(now);
      return (withExpiry ? jwt.setExpirationTime(now + 600) : jwt).sign(privateKey);
    };
    const headers = async (withExpiry: boolean) => ({ authorization: `Bearer ${await sign(withExpiry)}` });
    // The same token with an expiry is accepted: only the missing `exp` is refused.
    const url = `/api/connect/user/${sub}`;
    expect((await t.app.inject({ method: 'GET', url, headers: await headers(true) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: await headers(false) })).statusCode).toBe(401);
  });
});

describe('sign-out reaches every node', () => {
  // Two nodes on one database, each reading the others' revocations every 50 ms (1 s in production).
  const REFRESH_MS = 50;
  let t: TestContext;
  let other: App;

  beforeAll(async () => {
    t = await createTestApp({}, { revocationRefreshMs: REFRESH_MS });
    other = await buildApp({ config: testConfig(), db: t.db, logger: false, revocationRefreshMs: REFRESH_MS });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  async function newSession() {
    const email = `user-${randomUUID()}@example.com`;
    const [row] = await t.db.db
      .insert(idpUsers)
      .values({
        username: email,
        email,
        emailVerified: true,
        status: 'CONFIRMED',
        passwordHash: await hashPassword(PASSWORD),
      })
      .returning();
    return { sub: row!.sub, email, tokens: await signIn(t.app, email) };
  }

  const status = async (app: App, sub: string, tokens: Tokens) =>
    (await app.inject({ method: 'GET', url: `/api/connect/user/${sub}`, headers: bearer(tokens) })).statusCode;

  /** Polls the node until it answers `expected`, for at most `withinMs`; answers how long it took. */
  async function until(app: App, sub: string, tokens: Tokens, expected: number, withinMs: number) {
    const started = Date.now();
    await vi.waitFor(async () => expect(await status(app, sub, tokens), `within ${withinMs} ms`).toBe(expected), {
      timeout: withinMs,
      interval: 10,
    });
    return Date.now() - started;
  }

  it("a sign-out through one node's API is refused by the other within the refresh period", async () => {
    const { sub, tokens } = await newSession();
    // Both nodes have verified (and cached) the token.
    expect(await status(t.app, sub, tokens)).toBe(200);
    expect(await status(other, sub, tokens)).toBe(200);

    const res = await t.app.inject({ method: 'POST', url: '/api/connect/sign-out', headers: bearer(tokens) });
    expect(res.statusCode).toBe(204);
    expect(await status(t.app, sub, tokens)).toBe(401);
    await until(other, sub, tokens, 401, 2000);
  });

  it('a RevokeToken heard by one node is refused by the other, and not the other sign-in', async () => {
    const { sub, email, tokens } = await newSession();
    const second = await signIn(t.app, email);
    for (const node of [t.app, other]) {
      expect(await status(node, sub, tokens)).toBe(200);
      expect(await status(node, sub, second)).toBe(200);
    }
    expect(
      (await wire(t.app, 'RevokeToken', { ClientId: TEST_CLIENT_ID, Token: tokens.RefreshToken })).statusCode,
    ).toBe(200);
    await until(other, sub, tokens, 401, 2000);
    expect(await status(other, sub, second)).toBe(200);
  });

  it('a node started after the sign-out refuses the token from its first request', async () => {
    const { sub, tokens } = await newSession();
    expect((await wire(t.app, 'GlobalSignOut', { AccessToken: tokens.AccessToken })).statusCode).toBe(200);
    const late = await buildApp({ config: testConfig(), db: t.db, logger: false });
    try {
      await late.ready();
      expect(await status(late, sub, tokens)).toBe(401);
    } finally {
      await late.close();
    }
  });
});
