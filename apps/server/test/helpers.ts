import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { idpUsers, type DbHandle } from '@connect/db';
import { isStaffRole, PROBLEMS, type Role } from '@connect/shared';
import { createTestDatabase } from '@connect/db/testing';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPortalUser } from '../src/repositories/portal-users.ts';
import { issueAuthentication } from '../src/services/identity/sessions.ts';
import { generateTotpSecret } from '../src/services/identity/totp.ts';
import type { App } from '../src/types.ts';

export const TEST_POOL_ID = 'us-east-1_TestPool1';
export const TEST_CLIENT_ID = 'connecttestclient';

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'connect-test-')),
    PUBLIC_URL: 'http://localhost',
    SECRET_KEY: 'test-secret-key',
    IDP_POOL_ID: TEST_POOL_ID,
    IDP_CLIENT_ID: TEST_CLIENT_ID,
    RATE_LIMIT_MAX: '100000',
    IDP_RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'silent',
    // Tests change rows behind the API's back; the per-node user cache has its own tests.
    USER_CACHE_MS: '0',
    // Wire-protocol tests sign up without a browser; the captcha has its own tests.
    SIGNUP_CAPTCHA: 'off',
    WEB_DIST: path.join(import.meta.dirname, 'fixtures/web-dist'),
    // Each app's card sandbox listens on a free port of its own.
    CARD_SANDBOX_PORT: '0',
    ...env,
  });
}

export type TestContext = { app: App; db: DbHandle; close: () => Promise<void> };

/** The whole app on a fresh database (cloned from the migrated template), no port. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: Omit<BuildOptions, 'config' | 'db'> = {},
): Promise<TestContext> {
  const config = testConfig(env);
  const db = await createTestDatabase();
  const app = await buildApp({ config, db, logger: false, ...options });
  await app.ready();
  holdProblemsToTheirCodes(app);
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/**
 * Every refusal carries a machine code (ARCHITECTURE.md, "Errors on the wire"): each problem
 * details answer any server test receives through `app.inject()` is checked here, so a refusal
 * without a code, or with a status other than its code's, fails the test that provoked it.
 */
function holdProblemsToTheirCodes(app: App) {
  const inject = app.inject.bind(app) as (options: unknown) => Promise<Awaited<ReturnType<App['inject']>>>;
  app.inject = (async (options: unknown) => {
    const res = await inject(options);
    if (/^application\/problem\+json/.test(String(res.headers['content-type'] ?? ''))) {
      const body = res.json() as { code?: string; status?: number };
      const entry = body.code ? PROBLEMS[body.code as keyof typeof PROBLEMS] : undefined;
      if (!entry) throw new Error(`A problem answer without a known code: ${res.body}`);
      if (entry.status !== res.statusCode || body.status !== res.statusCode) {
        throw new Error(`Problem code ${body.code} is a ${entry.status}, answered as ${res.statusCode}: ${res.body}`);
      }
    }
    return res;
  }) as App['inject'];
}

/**
 * A confirmed identity-pool user with a signed-in session, made straight on the pool's tables
 * (service tests that are not about sign-in use this; the identity tests drive the wire protocol).
 * The portal user is created by the first authenticated request, as in production.
 */
export async function signInAs(
  t: TestContext,
  input: { email?: string; role?: Role; withoutMfa?: boolean } = {},
): Promise<{
  sub: string;
  email: string;
  accessToken: string;
  headers: { authorization: string };
  /** A staff user's authenticator secret (base32), to make TOTP codes. */
  totpSecret?: string;
}> {
  const email = (input.email ?? `user-${randomUUID()}@example.com`).toLowerCase();
  const { deps } = t.app;
  // Staff must use an authenticator app (issue 32 §1): a staff user has one, verified and
  // preferred, as if they had set it up at their first sign-in — unless the test says otherwise.
  const totpSecret = input.role && isStaffRole(input.role) && !input.withoutMfa ? generateTotpSecret() : undefined;
  const mfa = totpSecret
    ? { totpSecret: deps.box.seal(totpSecret), totpVerified: true, mfaEnabled: true, mfaPreferred: true }
    : {};
  const [row] = await t.db.db
    .insert(idpUsers)
    .values({ username: email, email, emailVerified: true, status: 'CONFIRMED', passwordHash: 'unusable', ...mfa })
    .returning();
  if (input.role && input.role !== 'INDIVIDUAL') {
    await createPortalUser(deps.db, deps.events, { id: row!.sub, email, role: input.role });
  }
  const result = await issueAuthentication(deps.db, deps.keys!, deps.pool, {
    sub: row!.sub,
    username: email,
    email,
    emailVerified: true,
    groups: [],
  });
  return {
    sub: row!.sub,
    email,
    accessToken: result.AccessToken,
    headers: { authorization: `Bearer ${result.AccessToken}` },
    ...(totpSecret ? { totpSecret } : {}),
  };
}
