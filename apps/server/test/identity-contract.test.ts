import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  fetchAuthSession,
  fetchMFAPreference,
  getCurrentUser,
  resendSignUpCode,
  resetPassword,
  setUpTOTP,
  signIn,
  signOut,
  signUp,
  updateMFAPreference,
  updatePassword,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { ConsoleLogger } from 'aws-amplify/utils';
import { idpRefreshTokens, users, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { ZRuntimeConfig } from '@connect/shared';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/types.ts';
import { testConfig } from './helpers.ts';

/**
 * The real aws-amplify v6 Auth library, unmodified, against the embedded pool over HTTP: the
 * same calls the SPA makes. Amplify's state is global to the process, so the scenarios run in
 * order in this one file and each ends signed out.
 */

const PASSWORD = 'Contract-Pass-1';

/** Amplify's token store in memory, so the test can read the refresh token it holds. */
class MemoryStorage {
  readonly items = new Map<string, string>();
  async setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  async getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  async removeItem(key: string) {
    this.items.delete(key);
  }
  async clear() {
    this.items.clear();
  }
  refreshToken(): string {
    const entry = [...this.items].find(([key]) => key.endsWith('.refreshToken'));
    if (!entry) throw new Error('Amplify holds no refresh token');
    return entry[1];
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const newEmail = () => `amplify-${randomUUID().slice(0, 8)}@example.com`;

/** An error's Cognito exception name as Amplify surfaces it (`err.name`). */
async function failure(promise: Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
  throw new Error('expected the call to fail');
}

function totpFor(secret: string) {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
}

/** A six-digit code that is none of the codes valid around now. */
function wrongTotp(secret: string): string {
  const totp = totpFor(secret);
  const valid = new Set([-1, 0, 1, 2].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

describe('aws-amplify v6 against the embedded pool', () => {
  let app: App;
  let db: DbHandle;
  let base: string;
  const storage = new MemoryStorage();

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await createTestDatabase();
    app = await buildApp({ config: testConfig({ PUBLIC_URL: base }), db, logger: false });
    // A route that requires a signed-in user, as the API's own routes will.
    app.get('/api/contract/me', { config: { access: 'user' } }, async (request) => ({ id: request.user!.id }));
    await app.listen({ port, host: '127.0.0.1' });

    // Amplify warns that the endpoint is not AWS's; that is the point of this test.
    ConsoleLogger.LOG_LEVEL = 'ERROR';
    const runtime = ZRuntimeConfig.parse(await (await fetch(`${base}/runtime-config.json`)).json());
    // A path on the portal's own origin, which the SPA resolves against the page's address.
    expect(runtime.identity.userPoolEndpoint).toBe('/idp');
    Amplify.configure({
      Auth: {
        Cognito: {
          userPoolId: runtime.identity.userPoolId,
          userPoolClientId: runtime.identity.userPoolClientId,
          userPoolEndpoint: new URL(runtime.identity.userPoolEndpoint!, base).href,
        },
      },
    });
    cognitoUserPoolsTokenProvider.setKeyValueStorage(storage);
  });

  afterEach(async () => {
    await signOut();
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  async function outbox(to: string, kind: string): Promise<string> {
    const res = await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(to)}`);
    const { messages } = (await res.json()) as { messages: { kind: string; code: string | null }[] };
    const code = messages.filter((m) => m.kind === kind).at(-1)?.code;
    if (!code) throw new Error(`no ${kind} message for ${to}`);
    return code;
  }

  /** A raw call on the wire, for what Amplify has no function for. */
  async function wire(operation: string, body: unknown) {
    const res = await fetch(`${base}/idp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function registered(email = newEmail(), password = PASSWORD): Promise<string> {
    await signUp({ username: email, password, options: { userAttributes: { email } } });
    await confirmSignUp({ username: email, confirmationCode: await outbox(email, 'SIGN_UP_CODE') });
    return email;
  }

  const passwordSignIn = (username: string, password = PASSWORD) =>
    signIn({ username, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });

  async function accessToken(): Promise<string> {
    const session = await fetchAuthSession();
    const token = session.tokens?.accessToken.toString();
    if (!token) throw new Error('not signed in');
    return token;
  }

  it('signs up, refuses a duplicate, resends, and confirms with the right code once', async () => {
    const email = newEmail();
    const result = await signUp({ username: email, password: PASSWORD, options: { userAttributes: { email } } });
    expect(result).toMatchObject({
      isSignUpComplete: false,
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      nextStep: {
        signUpStep: 'CONFIRM_SIGN_UP',
        codeDeliveryDetails: { destination: 'a***@e***.com', deliveryMedium: 'EMAIL', attributeName: 'email' },
      },
    });
    expect(
      await failure(signUp({ username: email, password: PASSWORD, options: { userAttributes: { email } } })),
    ).toMatchObject({ name: 'UsernameExistsException' });

    const first = await outbox(email, 'SIGN_UP_CODE');
    const resent = await resendSignUpCode({ username: email });
    expect(resent).toMatchObject({ destination: 'a***@e***.com', deliveryMedium: 'EMAIL' });
    const code = await outbox(email, 'SIGN_UP_CODE');
    // The first code was replaced by the resend, so it is as wrong as any other.
    const wrong = [first, '000000', '111111'].find((candidate) => candidate !== code)!;
    expect(await failure(confirmSignUp({ username: email, confirmationCode: wrong }))).toMatchObject({
      name: 'CodeMismatchException',
    });
    expect(await confirmSignUp({ username: email, confirmationCode: code })).toMatchObject({
      isSignUpComplete: true,
      nextStep: { signUpStep: 'DONE' },
    });
    expect(await failure(confirmSignUp({ username: email, confirmationCode: code }))).toEqual({
      name: 'NotAuthorizedException',
      message: 'User cannot be confirmed. Current status is CONFIRMED',
    });
  });

  it('signs in: unconfirmed, wrong password, unknown user, then right', async () => {
    const unconfirmed = newEmail();
    await signUp({ username: unconfirmed, password: PASSWORD, options: { userAttributes: { email: unconfirmed } } });
    expect(await passwordSignIn(unconfirmed)).toMatchObject({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_UP' },
    });

    const email = await registered();
    const wrong = await failure(passwordSignIn(email, 'Wrong-Pass-1'));
    const unknown = await failure(passwordSignIn(newEmail()));
    expect(wrong).toEqual({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    expect(unknown).toEqual(wrong);

    expect(await passwordSignIn(email)).toMatchObject({ isSignedIn: true, nextStep: { signInStep: 'DONE' } });
    const current = await getCurrentUser();
    expect(current.username).toBe(email);

    // The API verifies the pool's token and creates the portal user on the first request.
    const token = await accessToken();
    const claims = await app.verifyAccessToken(token);
    expect(claims.sub).toBe(current.userId);
    expect(await db.db.select().from(users).where(eq(users.id, claims.sub))).toEqual([]);
    const me = await fetch(`${base}/api/contract/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ id: claims.sub });
    const [portalUser] = await db.db.select().from(users).where(eq(users.id, claims.sub));
    expect(portalUser).toMatchObject({ email, role: 'INDIVIDUAL' });
    const anonymous = await fetch(`${base}/api/contract/me`);
    expect(anonymous.status).toBe(401);
  });

  it('refreshes the session through GetTokensFromRefreshToken and REFRESH_TOKEN_AUTH', async () => {
    const email = await registered();
    await passwordSignIn(email);
    const before = await fetchAuthSession();
    const refreshBefore = storage.refreshToken();
    const after = await fetchAuthSession({ forceRefresh: true });
    const oldAccess = before.tokens!.accessToken.payload;
    const newAccess = after.tokens!.accessToken.payload;
    expect(newAccess.jti).not.toBe(oldAccess.jti);
    expect(newAccess.origin_jti).toBe(oldAccess.origin_jti);
    expect(newAccess.auth_time).toBe(oldAccess.auth_time);
    // Rotation: Amplify now holds a new refresh token and the old one is spent.
    const refreshAfter = storage.refreshToken();
    expect(refreshAfter).not.toBe(refreshBefore);
    const spent = await wire('GetTokensFromRefreshToken', {
      ClientId: app.deps.pool.clientId,
      RefreshToken: refreshBefore,
    });
    expect(spent.body.__type).toBe('NotAuthorizedException');
    const rows = await db.db
      .select()
      .from(idpRefreshTokens)
      .where(eq(idpRefreshTokens.sub, String(newAccess.sub)));
    expect(rows.filter((row) => row.replacedAt)).toHaveLength(1);

    const viaInitiateAuth = await wire('InitiateAuth', {
      ClientId: app.deps.pool.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: refreshAfter },
    });
    expect(viaInitiateAuth.status).toBe(200);
    const result = viaInitiateAuth.body.AuthenticationResult as { AccessToken: string };
    expect(decodeJwt(result.AccessToken).origin_jti).toBe(oldAccess.origin_jti);
    expect((await app.verifyAccessToken(result.AccessToken)).sub).toBe(newAccess.sub);
  });

  it('sets up an authenticator app and then signs in with its codes, refusing wrong and replayed ones', async () => {
    const email = await registered();
    await passwordSignIn(email);
    const setup = await setUpTOTP();
    const secret = setup.sharedSecret;
    expect(setup.getSetupUri('Quant Connect', email).toString()).toContain(`secret=${secret}`);
    expect(await failure(verifyTOTPSetup({ code: wrongTotp(secret) }))).toMatchObject({
      name: 'EnableSoftwareTokenMFAException',
    });
    await verifyTOTPSetup({ code: totpFor(secret).generate() });
    await updateMFAPreference({ totp: 'PREFERRED' });
    expect(await fetchMFAPreference()).toEqual({ preferred: 'TOTP', enabled: ['TOTP'] });
    await signOut();

    const challenged = await passwordSignIn(email);
    expect(challenged).toMatchObject({ isSignedIn: false, nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' } });
    expect(await failure(confirmSignIn({ challengeResponse: wrongTotp(secret) }))).toEqual({
      name: 'CodeMismatchException',
      message: 'Invalid code received for user',
    });
    // The set-up used the current time step; the next one is inside the window and unused.
    const code = totpFor(secret).generate({ timestamp: Date.now() + 30_000 });
    expect(await confirmSignIn({ challengeResponse: code })).toMatchObject({ isSignedIn: true });
    expect((await getCurrentUser()).username).toBe(email);
    await signOut();

    await passwordSignIn(email);
    expect(await failure(confirmSignIn({ challengeResponse: code }))).toEqual({
      name: 'ExpiredCodeException',
      message: 'Your software token has already been used once.',
    });
  });

  it('changes the password and resets a forgotten one', async () => {
    const email = await registered();
    await passwordSignIn(email);
    expect(await failure(updatePassword({ oldPassword: 'Wrong-Pass-1', newPassword: 'Changed-Pass-2' }))).toMatchObject(
      {
        name: 'NotAuthorizedException',
      },
    );
    await updatePassword({ oldPassword: PASSWORD, newPassword: 'Changed-Pass-2' });
    await signOut();
    expect(await failure(passwordSignIn(email))).toMatchObject({ name: 'NotAuthorizedException' });
    expect(await passwordSignIn(email, 'Changed-Pass-2')).toMatchObject({ isSignedIn: true });
    await signOut();

    const reset = await resetPassword({ username: email });
    expect(reset).toMatchObject({
      isPasswordReset: false,
      nextStep: {
        resetPasswordStep: 'CONFIRM_RESET_PASSWORD_WITH_CODE',
        codeDeliveryDetails: { destination: 'a***@e***.com', deliveryMedium: 'EMAIL' },
      },
    });
    const code = await outbox(email, 'RESET_CODE');
    expect(
      await failure(
        confirmResetPassword({
          username: email,
          confirmationCode: code === '000000' ? '111111' : '000000',
          newPassword: 'Reset-Pass-3',
        }),
      ),
    ).toMatchObject({ name: 'CodeMismatchException' });
    await confirmResetPassword({ username: email, confirmationCode: code, newPassword: 'Reset-Pass-3' });
    expect(await passwordSignIn(email, 'Reset-Pass-3')).toMatchObject({ isSignedIn: true });
  });

  it('locks the account after 5 wrong passwords', async () => {
    const email = await registered();
    for (let i = 0; i < 5; i++) {
      expect(await failure(passwordSignIn(email, 'Wrong-Pass-1'))).toEqual({
        name: 'NotAuthorizedException',
        message: 'Incorrect username or password.',
      });
    }
    expect(await failure(passwordSignIn(email))).toEqual({
      name: 'NotAuthorizedException',
      message: 'Password attempts exceeded',
    });
    // The first lockout lasts one second (a real wait: the lockout window is the subject).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await passwordSignIn(email)).toMatchObject({ isSignedIn: true });
  });

  it('lets an invited user sign in with the mailed temporary password and choose a new one', async () => {
    const email = newEmail();
    await app.deps.identityAdmin.createUser({ email });
    const temporary = await outbox(email, 'INVITATION');
    expect(await passwordSignIn(email, temporary)).toMatchObject({
      isSignedIn: false,
      nextStep: { signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' },
    });
    expect(await failure(confirmSignIn({ challengeResponse: 'short' }))).toMatchObject({
      name: 'InvalidPasswordException',
    });
    expect(await confirmSignIn({ challengeResponse: 'Chosen-Pass-4' })).toMatchObject({ isSignedIn: true });
    await signOut();
    expect(await passwordSignIn(email, 'Chosen-Pass-4')).toMatchObject({ isSignedIn: true });
  });

  it('signs out: locally revokes the refresh token, globally every session', async () => {
    const email = await registered();
    await passwordSignIn(email);
    const local = storage.refreshToken();
    await signOut();
    const afterLocal = await wire('GetTokensFromRefreshToken', {
      ClientId: app.deps.pool.clientId,
      RefreshToken: local,
    });
    expect(afterLocal.body).toEqual({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });

    await passwordSignIn(email);
    const refresh = storage.refreshToken();
    const access = await accessToken();
    await signOut({ global: true });
    expect(storage.items.size).toBe(0);
    const afterGlobal = await wire('GetTokensFromRefreshToken', {
      ClientId: app.deps.pool.clientId,
      RefreshToken: refresh,
    });
    expect(afterGlobal.body).toEqual({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    const user = await wire('GetUser', { AccessToken: access });
    expect(user.body).toEqual({ __type: 'NotAuthorizedException', message: 'Access Token has been revoked' });
  });
});
