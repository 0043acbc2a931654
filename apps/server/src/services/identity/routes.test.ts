import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpCodes, idpUsers, mailOutbox, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { TEST_CLIENT_ID, TEST_POOL_ID, testConfig } from '../../../test/helpers.ts';
import type { Mailer } from '../../adapters/mail/port.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../types.ts';
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
    { ClientId: TEST_CLIENT_ID, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] },
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
    { ClientId: TEST_CLIENT_ID, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } },
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
    h = await createHarness();
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
      expectError(await h.call('InitiateAuth', { AuthFlow: 'USER_PASSWORD_AUTH' }), 'InvalidParameterException', /clientId/);
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
      const discovery = await h.app.inject({ method: 'GET', url: `/idp/${TEST_POOL_ID}/.well-known/openid-configuration` });
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
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }, '/clocked'),
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
        expect((await h.call('ResendConfirmationCode', { ClientId: TEST_CLIENT_ID, Username: email }, '/clocked')).status).toBe(200);
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
        await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }, '/clocked'),
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
      for (let i = 0; i < 5; i++) expectError(await wrong(), 'NotAuthorizedException', 'Incorrect username or password.');
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
        expectError(await signIn(h, email, 'Wrong-Password-1', '/clocked'), 'NotAuthorizedException', 'Incorrect username or password.');
        const { lockedUntil } = await row();
        // Wait out exactly the lockout: the next failure still falls inside the 15 minutes.
        if (lockedUntil) h.clock.advance((lockedUntil.getTime() - h.clock.now().getTime()) / 1000);
      }
      const locked = await row();
      expect(locked.failedSignIns).toBe(16);
      expect((locked.lockedUntil!.getTime() - locked.lastFailedSignInAt!.getTime()) / 1000).toBe(900);

      h.clock.advance(1);
      expectError(await signIn(h, email, 'Wrong-Password-1', '/clocked'), 'NotAuthorizedException', 'Incorrect username or password.');
      expect((await row()).failedSignIns).toBe(1);
      expect((await row()).lockedUntil).toBeNull();
    });
  });
});
