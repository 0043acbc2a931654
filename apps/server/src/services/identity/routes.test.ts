import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpCodes, idpUsers, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { TEST_CLIENT_ID, TEST_POOL_ID, testConfig } from '../../../test/helpers.ts';
import type { Mailer } from '../../adapters/mail/port.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../types.ts';
import { EmbeddedIdentityAdmin } from '../../adapters/identity-admin/embedded.ts';
import { identityRoutes, type IdentityRouteOptions } from './routes.ts';
import { totpCodeAt } from './totp.ts';

const PASSWORD = 'Correct-Horse-1';

/** A clock the tests move by hand; the pool mounted at /clocked reads it, /idp reads real time. */
class TestClock {
  private ms = Date.now();
  readonly now = () => new Date(this.ms);
  advance(seconds: number) {
    this.ms += seconds * 1000;
  }
}

type Harness = {
  app: App;
  db: DbHandle;
  clock: TestClock;
  close: () => Promise<void>;
  call: (operation: string, body: unknown, prefix?: string) => Promise<WireResponse>;
  outbox: (to: string) => Promise<{ kind: string; code: string | null; subject: string; text: string }[]>;
};
type WireResponse = { status: number; body: Record<string, unknown>; headers: Record<string, unknown> };

async function createHarness(
  env: Record<string, string> = {},
  extra: { mailer?: Mailer; mounts?: Record<string, IdentityRouteOptions> } = {},
): Promise<Harness> {
  const db = await createTestDatabase();
  const app = await buildApp({
    config: testConfig(env),
    db,
    logger: false,
    ...(extra.mailer ? { mailer: extra.mailer } : {}),
  });
  const clock = new TestClock();
  await app.register(async (scope) => identityRoutes(scope as App, app.deps, { clock: clock.now }), {
    prefix: '/clocked',
  });
  for (const [prefix, options] of Object.entries(extra.mounts ?? {})) {
    await app.register(async (scope) => identityRoutes(scope as App, app.deps, { clock: clock.now, ...options }), {
      prefix,
    });
  }
  await app.ready();
  return {
    app,
    db,
    clock,
    close: async () => {
      await app.close();
      await db.close();
    },
    call: async (operation, body, prefix = '/idp') => {
      const res = await app.inject({
        method: 'POST',
        url: prefix,
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
        },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    },
    outbox: async (to) => {
      const res = await app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
      return (res.json() as { messages: { kind: string; code: string | null; subject: string; text: string }[] })
        .messages;
    },
  };
}

const newEmail = () => `user-${randomUUID().slice(0, 8)}@example.com`;

function expectError(res: WireResponse, type: string, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.__type).toBe(type);
  expect(res.headers['x-amzn-errortype']).toBe(type);
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  if (message instanceof RegExp) expect(res.body.message).toMatch(message);
}

async function lastCode(h: Harness, email: string, kind: string): Promise<string> {
  const messages = (await h.outbox(email)).filter((m) => m.kind === kind);
  const code = messages.at(-1)?.code;
  if (!code) throw new Error(`no ${kind} message for ${email}`);
  return code;
}

async function signUp(h: Harness, email: string, prefix = '/idp') {
  return h.call(
    'SignUp',
    {
      ClientId: TEST_CLIENT_ID,
      Username: email,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: email }],
    },
    prefix,
  );
}

async function signUpConfirmed(h: Harness, email: string, prefix = '/idp') {
  expect((await signUp(h, email, prefix)).status).toBe(200);
  const code = await lastCode(h, email, 'SIGN_UP_CODE');
  expect(
    (await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }, prefix))
      .status,
  ).toBe(200);
}

function signIn(h: Harness, email: string, password = PASSWORD, prefix = '/idp') {
  return h.call(
    'InitiateAuth',
    {
      ClientId: TEST_CLIENT_ID,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    },
    prefix,
  );
}

type Tokens = { AccessToken: string; IdToken: string; RefreshToken: string };
async function signedIn(h: Harness, email: string, password = PASSWORD, prefix = '/idp'): Promise<Tokens> {
  const res = await signIn(h, email, password, prefix);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.AuthenticationResult as Tokens;
}

describe('identity pool wire protocol', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({}, { mounts: { '/mfa-on': { mfaConfiguration: 'ON' } } });
  });
  afterAll(() => h?.close());

  describe('protocol', () => {
    it('answers an unknown operation, a missing target and a malformed body with Cognito errors', async () => {
      const unknown = await h.call('AdminCreateUser', { UserPoolId: TEST_POOL_ID });
      expectError(unknown, 'UnknownOperationException', /AdminCreateUser/);
      expect(unknown.headers['content-type']).toContain('application/x-amz-json-1.1');

      const noTarget = await h.app.inject({
        method: 'POST',
        url: '/idp',
        headers: { 'content-type': 'application/x-amz-json-1.1' },
        payload: '{}',
      });
      expect(noTarget.statusCode).toBe(400);
      expect(noTarget.json()).toMatchObject({ __type: 'UnknownOperationException' });

      const malformed = await h.call('SignUp', '{"ClientId":');
      expectError(malformed, 'InvalidParameterException');
      expect(malformed.headers['content-type']).not.toContain('problem');

      expectError(await h.call('SignUp', '[1,2]'), 'InvalidParameterException', /validation error/);
      expectError(
        await h.call('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH' }),
        'InvalidParameterException',
        /clientId/,
      );
      const slash = await h.call('GetUser', { AccessToken: 'x' }, '/idp/');
      expectError(slash, 'NotAuthorizedException', 'Invalid Access Token');
      const elsewhere = await h.call('GetUser', { AccessToken: 'x' }, '/idp/elsewhere');
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.__type).toBe('UnknownOperationException');
      const poisoned = await h.call('GetUser', '{"AccessToken":"x","__proto__":{"admin":true}}');
      expectError(poisoned, 'InvalidParameterException');
    });

    it('refuses an unknown app client as Cognito does', async () => {
      const res = await h.call('InitiateAuth', {
        ClientId: 'someoneelse',
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'a@example.com', PASSWORD: PASSWORD },
      });
      expectError(res, 'ResourceNotFoundException', 'User pool client someoneelse does not exist.');
      expectError(
        await h.call('SignUp', { ClientId: 'nope', Username: newEmail(), Password: PASSWORD }),
        'ResourceNotFoundException',
      );
    });

    it('refuses flows the pool does not offer, naming the one to use', async () => {
      const res = await h.call('InitiateAuth', {
        ClientId: TEST_CLIENT_ID,
        AuthFlow: 'USER_SRP_AUTH',
        AuthParameters: { USERNAME: 'a@example.com', SRP_A: 'abc' },
      });
      expectError(res, 'InvalidParameterException', 'USER_SRP_AUTH is not enabled for the client.');
      const missing = await h.call('InitiateAuth', {
        ClientId: TEST_CLIENT_ID,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: 'a@example.com' },
      });
      expectError(missing, 'InvalidParameterException', 'Missing required parameter PASSWORD');
    });

    it('serves the JWKS and an OpenID discovery document naming the issuer', async () => {
      const discovery = await h.app.inject({
        method: 'GET',
        url: `/idp/${TEST_POOL_ID}/.well-known/openid-configuration`,
      });
      expect(discovery.statusCode).toBe(200);
      expect(discovery.json()).toMatchObject({
        issuer: `http://localhost/idp/${TEST_POOL_ID}`,
        jwks_uri: `http://localhost/idp/${TEST_POOL_ID}/.well-known/jwks.json`,
      });
      const jwks = await h.app.inject({ method: 'GET', url: `/idp/${TEST_POOL_ID}/.well-known/jwks.json` });
      expect((jwks.json() as { keys: { kid: string }[] }).keys[0]?.kid).toBeTruthy();
    });
  });

  describe('sign-up and confirmation', () => {
    it('signs up, mails a code, stores it hashed and the password as argon2id', async () => {
      const email = newEmail();
      const res = await signUp(h, email);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        UserConfirmed: false,
        UserSub: expect.stringMatching(/^[0-9a-f-]{36}$/),
        CodeDeliveryDetails: { Destination: 'u***@e***.com', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      const [mail] = await h.outbox(email);
      expect(mail).toMatchObject({ kind: 'SIGN_UP_CODE', code: expect.stringMatching(/^\d{6}$/) });
      expect(mail!.subject).toContain('Quant Connect');
      expect(mail!.text).toContain(mail!.code!);

      const [user] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(user!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(user!.status).toBe('UNCONFIRMED');
      const codes = await h.db.db.select().from(idpCodes).where(eq(idpCodes.sub, user!.sub));
      expect(codes).toHaveLength(1);
      expect(codes[0]!.codeHash).not.toContain(mail!.code!);
      expect(JSON.stringify(codes)).not.toContain(mail!.code!);
    });

    it('refuses a taken email, a weak password and a username that is not an email', async () => {
      const email = newEmail();
      await signUp(h, email);
      expectError(await signUp(h, email.toUpperCase()), 'UsernameExistsException');
      const weak = await h.call('SignUp', { ClientId: TEST_CLIENT_ID, Username: newEmail(), Password: 'password' });
      expectError(weak, 'InvalidPasswordException', /Password did not conform with policy/);
      const notEmail = await h.call('SignUp', { ClientId: TEST_CLIENT_ID, Username: 'alice', Password: PASSWORD });
      expectError(notEmail, 'InvalidParameterException', 'Username should be an email.');
      const sneaky = await h.call('SignUp', {
        ClientId: TEST_CLIENT_ID,
        Username: newEmail(),
        Password: PASSWORD,
        UserAttributes: [{ Name: 'email_verified', Value: 'true' }],
      });
      expectError(sneaky, 'NotAuthorizedException');
    });

    it('confirms with the right code only, once, and answers unknown users like a wrong code', async () => {
      const email = newEmail();
      await signUp(h, email);
      const code = await lastCode(h, email, 'SIGN_UP_CODE');
      const wrong = code === '000000' ? '111111' : '000000';
      expectError(
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: wrong }),
        'CodeMismatchException',
        'Invalid verification code provided, please try again.',
      );
      const ok = await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({});
      expectError(
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }),
        'NotAuthorizedException',
        'User cannot be confirmed. Current status is CONFIRMED',
      );
      expectError(
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: newEmail(), ConfirmationCode: code }),
        'CodeMismatchException',
      );
      expectError(
        await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }),
        'InvalidParameterException',
        'User is already confirmed.',
      );
    });

    it('replaces the code on resend and answers a resend for an unknown user as if it were sent', async () => {
      const email = newEmail();
      await signUp(h, email);
      const first = await lastCode(h, email, 'SIGN_UP_CODE');
      const resent = await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email });
      expect(resent.body).toEqual({
        CodeDeliveryDetails: { Destination: 'u***@e***.com', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      const second = await lastCode(h, email, 'SIGN_UP_CODE');
      if (first !== second) {
        expectError(
          await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: first }),
          'CodeMismatchException',
        );
      }
      expect(
        (await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: second })).status,
      ).toBe(200);

      const ghost = 'ghost@nowhere.org';
      const fake = await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: ghost });
      expect(fake.status).toBe(200);
      expect(fake.body).toEqual({
        CodeDeliveryDetails: { Destination: 'g***@n***.org', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      expect(await h.outbox(ghost)).toEqual([]);
    });

    it('expires a sign-up code after 24 hours', async () => {
      const email = newEmail();
      await signUp(h, email, '/clocked');
      const code = await lastCode(h, email, 'SIGN_UP_CODE');
      h.clock.advance(24 * 3600 + 1);
      expectError(
        await h.call(
          'ConfirmSignUp',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code },
          '/clocked',
        ),
        'ExpiredCodeException',
        'Invalid code provided, please request a code again.',
      );
      await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      const fresh = await lastCode(h, email, 'SIGN_UP_CODE');
      h.clock.advance(23 * 3600);
      const ok = await h.call(
        'ConfirmSignUp',
        { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: fresh },
        '/clocked',
      );
      expect(ok.status).toBe(200);
    });

    it('limits resends to 5 and confirmation attempts to 15 an hour per user', async () => {
      const email = newEmail();
      await signUp(h, email, '/clocked');
      for (let i = 0; i < 5; i++) {
        expect(
          (await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked')).status,
        ).toBe(200);
      }
      expectError(
        await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked'),
        'LimitExceededException',
        'Attempt limit exceeded, please try after some time.',
      );
      const code = await lastCode(h, email, 'SIGN_UP_CODE');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 15; i++) {
        const res = await h.call(
          'ConfirmSignUp',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: wrong },
          '/clocked',
        );
        expectError(res, 'CodeMismatchException');
      }
      expectError(
        await h.call(
          'ConfirmSignUp',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code },
          '/clocked',
        ),
        'LimitExceededException',
      );
      h.clock.advance(3601);
      const later = await h.call(
        'ConfirmSignUp',
        { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code },
        '/clocked',
      );
      expect(later.status).toBe(200);
    });
  });

  describe('sign-in', () => {
    it('gives unknown users and wrong passwords the same answer, and unconfirmed users their own', async () => {
      const email = newEmail();
      await signUp(h, email);
      const unknown = await signIn(h, newEmail());
      const wrong = await signIn(h, email, 'Wrong-Password-1');
      expectError(unknown, 'NotAuthorizedException', 'Incorrect username or password.');
      expect(wrong.body).toEqual(unknown.body);
      expectError(await signIn(h, email), 'UserNotConfirmedException');
    });

    it('issues tokens with Cognito claims that the API accepts', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const res = await signIn(h, email.toUpperCase());
      expect(res.body).toMatchObject({
        ChallengeParameters: {},
        AuthenticationResult: { ExpiresIn: 3600, TokenType: 'Bearer', RefreshToken: expect.any(String) },
      });
      const tokens = res.body.AuthenticationResult as Tokens;
      const claims = await h.app.verifyAccessToken(tokens.AccessToken);
      expect(claims).toMatchObject({ username: email, clientId: TEST_CLIENT_ID });
      const id = decodeJwt(tokens.IdToken);
      expect(id).toMatchObject({
        sub: claims.sub,
        'cognito:username': email,
        email,
        email_verified: true,
        token_use: 'id',
        aud: TEST_CLIENT_ID,
      });
      const user = await h.call('GetUser', { AccessToken: tokens.AccessToken });
      expect(user.body).toEqual({
        Username: email,
        UserAttributes: [
          { Name: 'sub', Value: claims.sub },
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      });
    });

    it('locks out after 5 failures for 2^(n-5) seconds, without extending it, and unlocks on time', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const wrong = () => signIn(h, email, 'Wrong-Password-1', '/clocked');
      for (let i = 0; i < 5; i++)
        expectError(await wrong(), 'NotAuthorizedException', 'Incorrect username or password.');
      // Locked for 1 s: even the right password is refused.
      expectError(await signIn(h, email, PASSWORD, '/clocked'), 'NotAuthorizedException', 'Password attempts exceeded');
      h.clock.advance(1);
      expectError(await wrong(), 'NotAuthorizedException', 'Incorrect username or password.'); // 6th: 2 s
      h.clock.advance(1);
      expectError(await wrong(), 'NotAuthorizedException', 'Password attempts exceeded'); // does not extend
      h.clock.advance(1);
      await signedIn(h, email, PASSWORD, '/clocked');
      const [row] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(row).toMatchObject({ failedSignIns: 0, lockedUntil: null });
    });

    it('caps the lockout at 15 minutes and forgets failures after 15 quiet minutes', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const row = async () => (await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email)))[0]!;
      for (let i = 1; i <= 16; i++) {
        expectError(
          await signIn(h, email, 'Wrong-Password-1', '/clocked'),
          'NotAuthorizedException',
          'Incorrect username or password.',
        );
        const { lockedUntil } = await row();
        // Wait out exactly the lockout: the next failure still falls inside the 15 minutes.
        if (lockedUntil) h.clock.advance((lockedUntil.getTime() - h.clock.now().getTime()) / 1000);
      }
      const locked = await row();
      expect(locked.failedSignIns).toBe(16);
      expect((locked.lockedUntil!.getTime() - locked.lastFailedSignInAt!.getTime()) / 1000).toBe(900);

      h.clock.advance(1);
      expectError(
        await signIn(h, email, 'Wrong-Password-1', '/clocked'),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
      expect((await row()).failedSignIns).toBe(1);
      expect((await row()).lockedUntil).toBeNull();
    });
  });

  describe('sessions and refresh tokens', () => {
    it('rotates the refresh token on GetTokensFromRefreshToken and keeps the sign-in', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const first = await signedIn(h, email);
      const res = await h.call('GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: first.RefreshToken,
      });
      expect(res.status).toBe(200);
      const next = res.body.AuthenticationResult as Tokens;
      expect(next.RefreshToken).toEqual(expect.any(String));
      expect(next.RefreshToken).not.toBe(first.RefreshToken);
      const before = decodeJwt(first.AccessToken);
      const after = decodeJwt(next.AccessToken);
      expect(after.origin_jti).toBe(before.origin_jti);
      expect(after.auth_time).toBe(before.auth_time);
      expect(after.jti).not.toBe(before.jti);
      // The old token is spent; the new one works.
      expectError(
        await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: first.RefreshToken }),
        'NotAuthorizedException',
        'Invalid Refresh Token',
      );
      const again = await h.call('GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: next.RefreshToken,
      });
      expect(again.status).toBe(200);
    });

    it('refreshes through InitiateAuth REFRESH_TOKEN_AUTH without a new refresh token', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const first = await signedIn(h, email);
      const res = await h.call('InitiateAuth', {
        ClientId: TEST_CLIENT_ID,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: first.RefreshToken },
      });
      expect(res.status).toBe(200);
      const result = res.body.AuthenticationResult as Partial<Tokens>;
      expect(result.RefreshToken).toBeUndefined();
      expect(decodeJwt(result.AccessToken!).origin_jti).toBe(decodeJwt(first.AccessToken).origin_jti);
      expect(decodeJwt(result.IdToken!)['cognito:username']).toBe(email);
      expectError(
        await h.call('InitiateAuth', {
          ClientId: TEST_CLIENT_ID,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: 'not-a-token' },
        }),
        'NotAuthorizedException',
        'Invalid Refresh Token',
      );
    });

    it('expires refresh tokens after 30 days and access tokens after an hour', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const tokens = await signedIn(h, email, PASSWORD, '/clocked');
      h.clock.advance(3601);
      expectError(
        await h.call('GetUser', { AccessToken: tokens.AccessToken }, '/clocked'),
        'NotAuthorizedException',
        'Access Token has expired',
      );
      h.clock.advance(30 * 86_400);
      expectError(
        await h.call(
          'GetTokensFromRefreshToken',
          { ClientId: TEST_CLIENT_ID, RefreshToken: tokens.RefreshToken },
          '/clocked',
        ),
        'NotAuthorizedException',
        'Refresh Token has expired',
      );
    });

    it('GlobalSignOut revokes every refresh token and the access tokens issued before it', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const a = await signedIn(h, email);
      const b = await signedIn(h, email);
      expect((await h.call('GlobalSignOut', { AccessToken: a.AccessToken })).body).toEqual({});
      for (const tokens of [a, b]) {
        expectError(
          await h.call('GetUser', { AccessToken: tokens.AccessToken }),
          'NotAuthorizedException',
          'Access Token has been revoked',
        );
        expectError(
          await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: tokens.RefreshToken }),
          'NotAuthorizedException',
          'Refresh Token has been revoked',
        );
      }
      // A sign-in right after (within the same second) is not caught by the sign-out.
      const fresh = await signedIn(h, email);
      expect((await h.call('GetUser', { AccessToken: fresh.AccessToken })).status).toBe(200);
      const [row] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(row!.tokensValidAfter).toBeInstanceOf(Date);
    });

    it('RevokeToken revokes that sign-in only', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const a = await signedIn(h, email);
      const b = await signedIn(h, email);
      const rotated = await h.call('GetTokensFromRefreshToken', {
        ClientId: TEST_CLIENT_ID,
        RefreshToken: a.RefreshToken,
      });
      const aNext = rotated.body.AuthenticationResult as Tokens;
      expect((await h.call('RevokeToken', { ClientId: TEST_CLIENT_ID, Token: aNext.RefreshToken })).body).toEqual({});
      expectError(
        await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: aNext.RefreshToken }),
        'NotAuthorizedException',
        'Refresh Token has been revoked',
      );
      expectError(
        await h.call('GetUser', { AccessToken: a.AccessToken }),
        'NotAuthorizedException',
        'Access Token has been revoked',
      );
      expect((await h.call('GetUser', { AccessToken: b.AccessToken })).status).toBe(200);
      expect(
        (await h.call('GetTokensFromRefreshToken', { ClientId: TEST_CLIENT_ID, RefreshToken: b.RefreshToken })).status,
      ).toBe(200);
      // An unknown token gets the same empty answer.
      expect((await h.call('RevokeToken', { ClientId: TEST_CLIENT_ID, Token: 'unknown' })).body).toEqual({});
    });

    it('refuses access tokens that are forged, of another kind or for another client', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const tokens = await signedIn(h, email);
      expectError(
        await h.call('GetUser', { AccessToken: 'garbage' }),
        'NotAuthorizedException',
        'Invalid Access Token',
      );
      expectError(
        await h.call('GetUser', { AccessToken: tokens.IdToken }),
        'NotAuthorizedException',
        'Invalid Access Token',
      );
      const [header, payload] = tokens.AccessToken.split('.');
      const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
      forged.sub = randomUUID();
      const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${tokens.AccessToken.split('.')[2]}`;
      expectError(await h.call('GetUser', { AccessToken: tampered }), 'NotAuthorizedException', 'Invalid Access Token');
    });
  });

  describe('authenticator app (TOTP)', () => {
    async function enableTotp(email: string, prefix = '/idp'): Promise<{ secret: string; tokens: Tokens }> {
      await signUpConfirmed(h, email, prefix);
      const tokens = await signedIn(h, email, PASSWORD, prefix);
      const associated = await h.call('AssociateSoftwareToken', { AccessToken: tokens.AccessToken }, prefix);
      const secret = associated.body.SecretCode as string;
      const verified = await h.call(
        'VerifySoftwareToken',
        {
          AccessToken: tokens.AccessToken,
          UserCode: totpCodeAt(secret, prefix === '/idp' ? new Date() : h.clock.now()),
          FriendlyDeviceName: 'phone',
        },
        prefix,
      );
      expect(verified.body).toEqual({ Status: 'SUCCESS' });
      const preference = await h.call(
        'SetUserMFAPreference',
        { AccessToken: tokens.AccessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } },
        prefix,
      );
      expect(preference.status).toBe(200);
      return { secret, tokens };
    }

    it('sets up an authenticator: wrong code refused, secret stored encrypted, preference reported', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const tokens = await signedIn(h, email);
      const associated = await h.call('AssociateSoftwareToken', { AccessToken: tokens.AccessToken });
      const secret = associated.body.SecretCode as string;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const [row] = await h.db.db.select().from(idpUsers).where(eq(idpUsers.username, email));
      expect(row!.pendingTotpSecret).toMatch(/^v1\./);
      expect(row!.pendingTotpSecret).not.toContain(secret);

      expectError(
        await h.call('SetUserMFAPreference', {
          AccessToken: tokens.AccessToken,
          SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
        }),
        'SoftwareTokenMFANotFoundException',
      );
      const right = totpCodeAt(secret, new Date());
      const wrong = right === '000000' ? '111111' : '000000';
      expectError(
        await h.call('VerifySoftwareToken', { AccessToken: tokens.AccessToken, UserCode: wrong }),
        'EnableSoftwareTokenMFAException',
      );
      expect((await h.call('VerifySoftwareToken', { AccessToken: tokens.AccessToken, UserCode: right })).body).toEqual({
        Status: 'SUCCESS',
      });
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body).not.toHaveProperty(
        'PreferredMfaSetting',
      );
      await h.call('SetUserMFAPreference', {
        AccessToken: tokens.AccessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      });
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body).toMatchObject({
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
        UserMFASettingList: ['SOFTWARE_TOKEN_MFA'],
      });

      // Starting another set-up does not switch off the authenticator in use.
      await h.call('AssociateSoftwareToken', { AccessToken: tokens.AccessToken });
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body).toMatchObject({
        PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA',
      });
      const signIn = await h.call('InitiateAuth', {
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: TEST_CLIENT_ID,
        AuthParameters: { USERNAME: email, PASSWORD: PASSWORD },
      });
      expect(signIn.body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
    });

    it('asks for the code at sign-in; a wrong code keeps the session, a used session or code is refused', async () => {
      const email = newEmail();
      const { secret } = await enableTotp(email, '/clocked');
      // The set-up code used this time step: sign in one step later.
      h.clock.advance(30);
      const challenge = await signIn(h, email, PASSWORD, '/clocked');
      expect(challenge.body).toMatchObject({
        ChallengeName: 'SOFTWARE_TOKEN_MFA',
        Session: expect.any(String),
        ChallengeParameters: { USER_ID_FOR_SRP: email },
      });
      const respond = (code: string, session = challenge.body.Session) =>
        h.call(
          'RespondToAuthChallenge',
          {
            ClientId: TEST_CLIENT_ID,
            ChallengeName: 'SOFTWARE_TOKEN_MFA',
            Session: session,
            ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code },
          },
          '/clocked',
        );
      const code = totpCodeAt(secret, h.clock.now());
      expectError(
        await respond(code === '000000' ? '111111' : '000000'),
        'CodeMismatchException',
        'Invalid code received for user',
      );
      const ok = await respond(code);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ AuthenticationResult: { AccessToken: expect.any(String) } });
      expectError(
        await respond(code),
        'NotAuthorizedException',
        'Invalid session for the user, session can only be used once.',
      );

      const replay = await signIn(h, email, PASSWORD, '/clocked');
      expectError(
        await respond(code, replay.body.Session),
        'ExpiredCodeException',
        'Your software token has already been used once.',
      );
      h.clock.advance(30);
      expect((await respond(totpCodeAt(secret, h.clock.now()), replay.body.Session)).status).toBe(200);
    });

    it('expires a challenge session after 3 minutes', async () => {
      const email = newEmail();
      const { secret } = await enableTotp(email, '/clocked');
      h.clock.advance(30);
      const challenge = await signIn(h, email, PASSWORD, '/clocked');
      h.clock.advance(181);
      const res = await h.call(
        'RespondToAuthChallenge',
        {
          ClientId: TEST_CLIENT_ID,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenge.body.Session,
          ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: totpCodeAt(secret, h.clock.now()) },
        },
        '/clocked',
      );
      expectError(res, 'NotAuthorizedException', 'Invalid session for the user, session is expired.');
    });

    it('turning the preference off removes the sign-in step', async () => {
      const email = newEmail();
      const { tokens } = await enableTotp(email);
      await h.call('SetUserMFAPreference', {
        AccessToken: tokens.AccessToken,
        SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
      });
      expect((await signIn(h, email)).body).toHaveProperty('AuthenticationResult');
    });

    it('with MFA required, sets up the authenticator during sign-in (MFA_SETUP)', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/mfa-on');
      const challenge = await signIn(h, email, PASSWORD, '/mfa-on');
      expect(challenge.body).toMatchObject({
        ChallengeName: 'MFA_SETUP',
        ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
      });
      const associated = await h.call('AssociateSoftwareToken', { Session: challenge.body.Session }, '/mfa-on');
      expect(associated.body).toMatchObject({ SecretCode: expect.any(String), Session: expect.any(String) });
      const secret = associated.body.SecretCode as string;
      const verified = await h.call(
        'VerifySoftwareToken',
        { Session: associated.body.Session, UserCode: totpCodeAt(secret, h.clock.now()) },
        '/mfa-on',
      );
      expect(verified.body).toMatchObject({ Status: 'SUCCESS', Session: expect.any(String) });
      const done = await h.call(
        'RespondToAuthChallenge',
        {
          ClientId: TEST_CLIENT_ID,
          ChallengeName: 'MFA_SETUP',
          Session: verified.body.Session,
          ChallengeResponses: { USERNAME: email },
        },
        '/mfa-on',
      );
      expect(done.body).toHaveProperty('AuthenticationResult.AccessToken');
      expect((await signIn(h, email, PASSWORD, '/mfa-on')).body).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
      expectError(
        await h.call('AssociateSoftwareToken', { Session: challenge.body.Session }, '/mfa-on'),
        'NotAuthorizedException',
        'Invalid session for the user, session can only be used once.',
      );
    });
  });

  describe('passwords', () => {
    it('invited users choose a new password at first sign-in (NEW_PASSWORD_REQUIRED)', async () => {
      const email = newEmail();
      await h.app.deps.identityAdmin.createUser({ email });
      const [invitation] = await h.outbox(email);
      expect(invitation).toMatchObject({ kind: 'INVITATION' });
      expect(invitation!.text).toContain(invitation!.code!);
      const challenge = await signIn(h, email, invitation!.code!);
      expect(challenge.body).toMatchObject({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: expect.any(String) });
      const parameters = challenge.body.ChallengeParameters as Record<string, string>;
      expect(parameters.USER_ID_FOR_SRP).toBe(email);
      expect(JSON.parse(parameters.requiredAttributes!)).toEqual([]);
      expect(JSON.parse(parameters.userAttributes!)).toEqual({ email, email_verified: 'true' });
      const respond = (password: string) =>
        h.call('RespondToAuthChallenge', {
          ClientId: TEST_CLIENT_ID,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: challenge.body.Session,
          ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password, 'userAttributes.given_name': 'Ada' },
        });
      expectError(await respond('short'), 'InvalidPasswordException');
      const done = await respond('Brand-New-Pass-2');
      expect(done.body).toHaveProperty('AuthenticationResult.AccessToken');
      const tokens = await signedIn(h, email, 'Brand-New-Pass-2');
      expect((await h.call('GetUser', { AccessToken: tokens.AccessToken })).body.UserAttributes).toContainEqual({
        Name: 'given_name',
        Value: 'Ada',
      });
      expectError(
        await signIn(h, email, invitation!.code!),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
    });

    it('temporary passwords expire after 7 days', async () => {
      const email = newEmail();
      const admin = new EmbeddedIdentityAdmin({
        db: h.db.db,
        mailer: h.app.deps.mailer,
        revocations: h.app.deps.revocations,
        product: { productName: 'Quant Connect', publicUrl: 'http://localhost' },
        clock: h.clock.now,
      });
      const { password } = await admin.createUser({ email });
      h.clock.advance(7 * 86_400 + 1);
      expectError(
        await signIn(h, email, password, '/clocked'),
        'NotAuthorizedException',
        'Temporary password has expired and must be reset by an administrator.',
      );
    });

    it('changes the password with the previous one, within 5 attempts an hour', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email);
      const tokens = await signedIn(h, email);
      const change = (previous: string, proposed: string) =>
        h.call('ChangePassword', {
          AccessToken: tokens.AccessToken,
          PreviousPassword: previous,
          ProposedPassword: proposed,
        });
      expectError(
        await change('Wrong-Password-1', 'Another-Pass-3'),
        'NotAuthorizedException',
        'Incorrect username or password.',
      );
      expectError(await change(PASSWORD, 'weak'), 'InvalidPasswordException');
      expect((await change(PASSWORD, 'Another-Pass-3')).body).toEqual({});
      expectError(await signIn(h, email), 'NotAuthorizedException');
      await signedIn(h, email, 'Another-Pass-3');
      for (let i = 0; i < 3; i++) await change('Wrong-Password-1', 'Another-Pass-4');
      expectError(await change('Another-Pass-3', 'Another-Pass-4'), 'LimitExceededException');
    });

    it('resets a forgotten password with a code valid for an hour, and ends other sessions', async () => {
      const email = newEmail();
      await signUpConfirmed(h, email, '/clocked');
      const tokens = await signedIn(h, email, PASSWORD, '/clocked');
      const forgot = await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      expect(forgot.body).toEqual({
        CodeDeliveryDetails: { Destination: 'u***@e***.com', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      const code = await lastCode(h, email, 'RESET_CODE');
      const confirm = (c: string, password = 'Reset-Pass-5') =>
        h.call(
          'ConfirmForgotPassword',
          { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: c, Password: password },
          '/clocked',
        );
      expectError(await confirm(code === '000000' ? '111111' : '000000'), 'CodeMismatchException');
      expectError(await confirm(code, 'weak'), 'InvalidPasswordException');
      h.clock.advance(3601);
      expectError(await confirm(code), 'ExpiredCodeException');
      await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked');
      expect((await confirm(await lastCode(h, email, 'RESET_CODE'))).body).toEqual({});
      await signedIn(h, email, 'Reset-Pass-5', '/clocked');
      expectError(
        await h.call(
          'GetTokensFromRefreshToken',
          { ClientId: TEST_CLIENT_ID, RefreshToken: tokens.RefreshToken },
          '/clocked',
        ),
        'NotAuthorizedException',
        'Refresh Token has been revoked',
      );
    });

    it('answers a reset for an unknown user as if a code were sent, and limits confirmations to 10 an hour', async () => {
      const ghost = 'nobody@example.org';
      const res = await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: ghost });
      expect(res.body).toEqual({
        CodeDeliveryDetails: { Destination: 'n***@e***.org', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      });
      expect(await h.outbox(ghost)).toEqual([]);
      expectError(
        await h.call('ConfirmForgotPassword', {
          ClientId: TEST_CLIENT_ID,
          Username: ghost,
          ConfirmationCode: '123456',
          Password: 'Reset-Pass-5',
        }),
        'CodeMismatchException',
      );

      const email = newEmail();
      await signUpConfirmed(h, email);
      await h.call('ForgotPassword', { ClientId: TEST_CLIENT_ID, Username: email });
      const code = await lastCode(h, email, 'RESET_CODE');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 10; i++) {
        await h.call('ConfirmForgotPassword', {
          ClientId: TEST_CLIENT_ID,
          Username: email,
          ConfirmationCode: wrong,
          Password: 'Reset-Pass-5',
        });
      }
      expectError(
        await h.call('ConfirmForgotPassword', {
          ClientId: TEST_CLIENT_ID,
          Username: email,
          ConfirmationCode: code,
          Password: 'Reset-Pass-5',
        }),
        'LimitExceededException',
      );
    });
  });
});

describe('identity pool under stress', () => {
  it('answers past the per-client limit with TooManyRequestsException', async () => {
    const h = await createHarness({ IDP_RATE_LIMIT_MAX: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await h.call('GetUser', { AccessToken: 'x' })).status);
      expect(statuses).toEqual([400, 400, 400]);
      const limited = await h.call('GetUser', { AccessToken: 'x' });
      expectError(limited, 'TooManyRequestsException');
      expect(limited.headers['content-type']).not.toContain('problem');
    } finally {
      await h.close();
    }
  });

  it('answers an unexpected failure with a generic InternalErrorException', async () => {
    const failing: Mailer = {
      isSandbox: true,
      send: async () => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:587 secret-internal-detail');
      },
    };
    const h = await createHarness({}, { mailer: failing });
    try {
      const res = await signUp(h, newEmail());
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ __type: 'InternalErrorException', message: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain('secret-internal-detail');
    } finally {
      await h.close();
    }
  });
});
