import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { TEST_CLIENT_ID, testConfig } from '../../../test/helpers.ts';
import type { Mailer } from '../../adapters/mail/port.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../types.ts';
import { identityRoutes, type IdentityRouteOptions } from './routes.ts';

/**
 * The harness of the wire-protocol suites (sign-up, sign-in, sessions, mfa, password,
 * wire-protocol): an app with the pool at /idp (real time) and at /clocked (a clock the test
 * moves), and the calls a client makes.
 */

export const PASSWORD = 'Correct-Horse-1';

/** A clock the tests move by hand; the pool mounted at /clocked reads it, /idp reads real time. */
export class TestClock {
  private ms = Date.now();
  readonly now = () => new Date(this.ms);
  advance(seconds: number) {
    this.ms += seconds * 1000;
  }
}

export type Harness = {
  app: App;
  db: DbHandle;
  clock: TestClock;
  close: () => Promise<void>;
  call: (operation: string, body: unknown, prefix?: string) => Promise<WireResponse>;
  outbox: (to: string) => Promise<{ kind: string; code: string | null; subject: string; text: string }[]>;
};
export type WireResponse = { status: number; body: Record<string, unknown>; headers: Record<string, unknown> };

export async function createHarness(
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

/**
 * The harness of a suite: built before its tests, closed after them. Its members are read when a
 * test runs, so the suite can name it where it declares its tests.
 */
export function suiteHarness(...options: Parameters<typeof createHarness>): Harness {
  let built: Harness | undefined;
  beforeAll(async () => {
    built = await createHarness(...options);
  });
  afterAll(() => built?.close());
  const harness = () => {
    if (!built) throw new Error('The harness is built before the tests run.');
    return built;
  };
  return {
    get app() {
      return harness().app;
    },
    get db() {
      return harness().db;
    },
    get clock() {
      return harness().clock;
    },
    close: () => harness().close(),
    call: (...args) => harness().call(...args),
    outbox: (to) => harness().outbox(to),
  };
}

export const newEmail = () => `user-${randomUUID().slice(0, 8)}@example.com`;

export function expectError(res: WireResponse, type: string, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.__type).toBe(type);
  expect(res.headers['x-amzn-errortype']).toBe(type);
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  if (message instanceof RegExp) expect(res.body.message).toMatch(message);
}

export async function lastCode(h: Harness, email: string, kind: string): Promise<string> {
  const messages = (await h.outbox(email)).filter((m) => m.kind === kind);
  const code = messages.at(-1)?.code;
  if (!code) throw new Error(`no ${kind} message for ${email}`);
  return code;
}

export async function signUp(h: Harness, email: string, prefix = '/idp') {
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

export async function signUpConfirmed(h: Harness, email: string, prefix = '/idp') {
  expect((await signUp(h, email, prefix)).status).toBe(200);
  const code = await lastCode(h, email, 'SIGN_UP_CODE');
  expect(
    (await h.call('ConfirmSignUp', { ClientId: TEST_CLIENT_ID, Username: email, ConfirmationCode: code }, prefix))
      .status,
  ).toBe(200);
}

export function signIn(h: Harness, email: string, password = PASSWORD, prefix = '/idp') {
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

export type Tokens = { AccessToken: string; IdToken: string; RefreshToken: string };
export async function signedIn(h: Harness, email: string, password = PASSWORD, prefix = '/idp'): Promise<Tokens> {
  const res = await signIn(h, email, password, prefix);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.AuthenticationResult as Tokens;
}
