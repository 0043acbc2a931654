import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycApplicants, kycChecks, users } from '@connect/db';
import { FIELD_MESSAGES, KYC_MESSAGES, ZKycStatusResponse, ZKycSdkToken, ZProblem, ZUser } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../../test/helpers.ts';
import { PRODUCTION_ENV } from '../../../test/production-env.ts';
import { onfidoSignature } from '../../adapters/kyc/onfido.ts';
import { FakeOnfido } from '../../adapters/kyc/testing/fake-onfido.ts';
import { requireVerifiedIdentity } from '../entitlements/index.ts';
import { TEST_PROFILE } from './testing.ts';

type Headers = { authorization: string };

const MATCHING = { documentFirstName: 'Ada', documentLastName: 'Lovelace', outcome: 'clear' as const };

function helpers(get: () => TestContext) {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers?: Headers, payload?: unknown) =>
    get().app.inject({
      method,
      url: `/api/connect${url}`,
      ...(headers ? { headers } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  /** A signed-in user with a complete profile (names Ada Lovelace unless `withProfile` is false). */
  async function newUser(options: { withProfile?: boolean } = {}) {
    const session = await signInAs(get());
    expect((await call('GET', `/user/${session.sub}`, session.headers)).statusCode).toBe(200);
    if (options.withProfile !== false) {
      expect((await call('PUT', '/user', session.headers, TEST_PROFILE)).statusCode).toBe(200);
    }
    return session;
  }

  async function status(headers: Headers) {
    const res = await call('GET', '/kyc/status', headers);
    expect(res.statusCode, res.body).toBe(200);
    return ZKycStatusResponse.parse(res.json());
  }

  /** Moves the user's pending check into the past, as if the sandbox delay had elapsed (or a restart). */
  async function makeOverdue(sub: string) {
    await get()
      .db.db.update(kycChecks)
      .set({ createdAt: sql`${kycChecks.createdAt} - interval '2 hours'` })
      .where(eq(kycChecks.userId, sub));
  }

  return { call, newUser, status, makeOverdue };
}

describe('connect service: identity verification with the sandbox', () => {
  let t: TestContext;
  // A long delay: tests settle checks by moving them into the past, so nothing depends on timing.
  beforeAll(async () => {
    t = await createTestApp({ KYC_SANDBOX_DELAY_MS: '3600000' });
  });
  afterAll(() => t?.close());
  const { call, newUser, status, makeOverdue } = helpers(() => t);

  it('answers 401 without a token on every endpoint', async () => {
    expect((await call('GET', '/kyc/token')).statusCode).toBe(401);
    expect((await call('GET', '/kyc/status')).statusCode).toBe(401);
    expect((await call('POST', '/kyc/create-check', undefined, { sandbox: MATCHING })).statusCode).toBe(401);
    expect((await call('GET', '/kyc/token', { authorization: 'Bearer nonsense' })).statusCode).toBe(401);
  });

  it('tells the SPA in the runtime configuration that KYC is the sandbox', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/runtime-config.json' });
    expect(res.json().sandboxes.kyc).toBe(true);
  });

  it('starts UNVERIFIED with no check', async () => {
    const { headers } = await newUser();
    expect(await status(headers)).toEqual({
      status: 'UNVERIFIED',
      provider: 'sandbox',
      isSandbox: true,
      isAvailable: true,
      check: null,
    });
  });

  it('creates the applicant on the first token request and reuses it after', async () => {
    const { sub, headers } = await newUser();
    const first = ZKycSdkToken.parse((await call('GET', '/kyc/token', headers)).json());
    expect(first).toMatchObject({ provider: 'sandbox', isSandbox: true });
    expect(first.applicantId).toMatch(/^sandbox-applicant-/);
    expect(first.region).toBeUndefined();
    const second = ZKycSdkToken.parse((await call('GET', '/kyc/token', headers)).json());
    expect(second.applicantId).toBe(first.applicantId);
    expect(second.token).not.toBe(first.token);
    const rows = await t.db.db.select().from(kycApplicants).where(eq(kycApplicants.userId, sub));
    expect(rows).toHaveLength(1);
  });

  it('needs the profile’s first and last name before a token or a check', async () => {
    const { headers } = await newUser({ withProfile: false });
    for (const res of [
      await call('GET', '/kyc/token', headers),
      await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING }),
    ]) {
      expect(res.statusCode).toBe(400);
      const problem = ZProblem.parse(res.json());
      expect(problem.detail).toBe(KYC_MESSAGES.namesMissing);
      expect(problem.invalidParams?.map((p) => p.name)).toEqual(['firstName', 'lastName']);
    }
  });

  it('validates the sandbox form: required names, length, a known outcome', async () => {
    const { headers } = await newUser();
    const missing = await call('POST', '/kyc/create-check', headers, {});
    expect(missing.statusCode).toBe(400);
    expect(ZProblem.parse(missing.json()).invalidParams?.map((p) => p.name)).toEqual([
      'sandbox.documentFirstName',
      'sandbox.documentLastName',
      'sandbox.outcome',
    ]);
    const bad = await call('POST', '/kyc/create-check', headers, {
      sandbox: { documentFirstName: '  ', documentLastName: 'x'.repeat(101), outcome: 'maybe' },
    });
    expect(bad.statusCode).toBe(400);
    const reasons = ZProblem.parse(bad.json()).invalidParams;
    expect(reasons).toEqual(
      expect.arrayContaining([
        { name: 'sandbox.documentFirstName', reason: FIELD_MESSAGES.required },
        { name: 'sandbox.documentLastName', reason: FIELD_MESSAGES.tooLong(100) },
      ]),
    );
    expect(reasons?.some((p) => p.name === 'sandbox.outcome')).toBe(true);
    expect((await status(headers)).status).toBe('UNVERIFIED');
  });

  it('UNVERIFIED → PENDING → VERIFIED when the document names match, and locks the names', async () => {
    const { sub, headers } = await newUser();
    const started = await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING });
    expect(started.statusCode, started.body).toBe(200);
    const pending = ZKycStatusResponse.parse(started.json());
    expect(pending.status).toBe('PENDING');
    expect(pending.check).toMatchObject({ status: 'PENDING', provider: 'sandbox', reason: null, completedAt: null });
    // The user endpoint shows it as onfidoApplicantStatus.
    expect(ZUser.parse((await call('GET', `/user/${sub}`, headers)).json()).onfidoApplicantStatus).toBe('PENDING');

    // Not due yet: a status read leaves it pending; a second check is refused meanwhile.
    expect((await status(headers)).status).toBe('PENDING');
    const again = await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING });
    expect(again.statusCode).toBe(409);
    expect(ZProblem.parse(again.json()).detail).toBe(KYC_MESSAGES.checkInProgress);

    await makeOverdue(sub);
    const verified = await status(headers);
    expect(verified.status).toBe('VERIFIED');
    expect(verified.check).toMatchObject({
      status: 'VERIFIED',
      reason: null,
      documentFirstName: 'Ada',
      documentLastName: 'Lovelace',
    });
    expect(verified.check?.completedAt).not.toBeNull();
    expect(ZUser.parse((await call('GET', `/user/${sub}`, headers)).json()).onfidoApplicantStatus).toBe('VERIFIED');

    // Spec §5: the names cannot change after verification (the profile rule of the connect service).
    const rename = await call('PUT', '/user', headers, { ...TEST_PROFILE, lastName: 'Byron' });
    expect(rename.statusCode).toBe(409);
    expect(ZProblem.parse(rename.json()).invalidParams).toEqual([
      { name: 'lastName', reason: FIELD_MESSAGES.namesLocked },
    ]);
    expect((await call('PUT', '/user', headers, TEST_PROFILE)).statusCode).toBe(200);

    // Nothing more to do once verified.
    expect((await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING })).statusCode).toBe(409);
    const token = await call('GET', '/kyc/token', headers);
    expect(token.statusCode).toBe(409);
    expect(ZProblem.parse(token.json()).detail).toBe(KYC_MESSAGES.alreadyVerified);
  });

  it('compares names ignoring letter case and spacing, as documents print them in capitals', async () => {
    const { sub, headers } = await newUser();
    await call('POST', '/kyc/create-check', headers, {
      sandbox: { documentFirstName: '  ADA ', documentLastName: 'LOVELACE', outcome: 'clear' },
    });
    await makeOverdue(sub);
    expect((await status(headers)).status).toBe('VERIFIED');
  });

  it('a name mismatch ends FAILED with its reason; a retry with the right name verifies', async () => {
    const { sub, headers } = await newUser();
    await call('POST', '/kyc/create-check', headers, {
      sandbox: { documentFirstName: 'Augusta', documentLastName: 'Lovelace', outcome: 'clear' },
    });
    await makeOverdue(sub);
    const failed = await status(headers);
    expect(failed.status).toBe('FAILED');
    expect(failed.check).toMatchObject({ status: 'FAILED', reason: 'NAME_MISMATCH', documentFirstName: 'Augusta' });
    // FAILED leaves the names editable, and allows a retry (spec §4).
    expect((await call('PUT', '/user', headers, { ...TEST_PROFILE, firstName: 'Augusta Ada' })).statusCode).toBe(200);
    expect((await call('PUT', '/user', headers, TEST_PROFILE)).statusCode).toBe(200);

    const retry = await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING });
    expect(retry.statusCode).toBe(200);
    expect(ZKycStatusResponse.parse(retry.json())).toMatchObject({ status: 'PENDING', check: { status: 'PENDING' } });
    await makeOverdue(sub);
    expect((await status(headers)).status).toBe('VERIFIED');
    const checks = await t.db.db.select().from(kycChecks).where(eq(kycChecks.userId, sub));
    expect(checks.map((c) => c.status).sort()).toEqual(['FAILED', 'VERIFIED']);
  });

  it('a rejected document (consider) ends FAILED even with matching names', async () => {
    const { sub, headers } = await newUser();
    await call('POST', '/kyc/create-check', headers, { sandbox: { ...MATCHING, outcome: 'consider' } });
    await makeOverdue(sub);
    expect((await status(headers)).check).toMatchObject({ status: 'FAILED', reason: 'DOCUMENT_REJECTED' });
  });

  it('compares with the profile as it is when the result arrives', async () => {
    const { sub, headers } = await newUser();
    await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING });
    expect((await call('PUT', '/user', headers, { ...TEST_PROFILE, firstName: 'Augusta' })).statusCode).toBe(200);
    await makeOverdue(sub);
    expect((await status(headers)).check?.reason).toBe('NAME_MISMATCH');
  });

  it('shows each user only their own status and checks', async () => {
    const alice = await newUser();
    const bob = await newUser();
    await call('POST', '/kyc/create-check', alice.headers, { sandbox: MATCHING });
    expect(await status(bob.headers)).toMatchObject({ status: 'UNVERIFIED', check: null });
    // Bob starting his own check does not touch Alice's.
    await call('POST', '/kyc/create-check', bob.headers, { sandbox: { ...MATCHING, outcome: 'consider' } });
    await makeOverdue(bob.sub);
    expect((await status(bob.headers)).status).toBe('FAILED');
    expect((await status(alice.headers)).status).toBe('PENDING');
    // Another user's id on the user endpoint stays a 404.
    expect((await call('GET', `/user/${alice.sub}`, bob.headers)).statusCode).toBe(404);
  });

  it('refuses the Onfido webhook: the sandbox sends none', async () => {
    const body = JSON.stringify({
      payload: { resource_type: 'check', action: 'check.completed', object: { id: 'x' } },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/connect/kyc/webhook',
      headers: { 'content-type': 'application/json', 'x-sha2-signature': onfidoSignature(body, 'anything') },
      payload: body,
    });
    expect(res.statusCode).toBe(401);
  });

  it('a restarted server settles checks whose time passed while it was down', async () => {
    const { sub, headers } = await newUser();
    await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING });
    await makeOverdue(sub);
    // A second node (or the server after a restart) on the same database, with no timer for this check.
    const restarted = await buildApp({
      config: testConfig({ KYC_SANDBOX_DELAY_MS: '3600000' }),
      db: t.db,
      logger: false,
    });
    await restarted.ready();
    await restarted.close();
    const [user] = await t.db.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, sub));
    expect(user?.kycStatus).toBe('VERIFIED');
  });
});

describe('connect service: the sandbox settles by itself after KYC_SANDBOX_DELAY_MS', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ KYC_SANDBOX_DELAY_MS: '150' });
  });
  afterAll(() => t?.close());
  const { call, newUser } = helpers(() => t);

  it('moves PENDING to VERIFIED with no further request', async () => {
    const { sub, headers } = await newUser();
    expect((await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING })).statusCode).toBe(200);
    const read = async () =>
      (await t.db.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, sub)))[0]?.kycStatus;
    // By its job (kyc-settle): the queue starts with the first check (pg-boss installs its schema)
    // and its worker looks every second, so the bound is wider than the delay.
    await expect.poll(read, { timeout: 15_000, interval: 50 }).toBe('VERIFIED');
  });
});

describe('connect service: a sandbox check settles by its job, which outlives the node that started it', () => {
  // A long delay, and time moved on by hand (the check's start and its job's): nothing depends on
  // how fast the machine builds the next node.
  const DELAY = { KYC_SANDBOX_DELAY_MS: '3600000' };
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp(DELAY);
  });
  afterAll(() => t?.close());
  const { call, newUser, makeOverdue } = helpers(() => t);

  it('a check whose node stops before its time is settled by the job on the next node, with no request', async () => {
    const { sub, headers } = await newUser();
    expect((await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING })).statusCode).toBe(200);
    const [check] = await t.db.db.select({ id: kycChecks.id }).from(kycChecks).where(eq(kycChecks.userId, sub));
    const jobs = async () => {
      const { rows } = await t.db.execute(
        `select state from pgboss.job where name = 'kyc-settle' and singleton_key = $1`,
        [check!.id],
      );
      return rows.map((row) => row.state);
    };
    const read = async () =>
      (await t.db.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, sub)))[0]?.kycStatus;
    // The node stops before the check is due: a timer would die with it; the job waits in the database.
    await t.app.deps.jobs.stop();
    expect(await jobs()).toEqual(['created']);
    const next = await buildApp({ config: testConfig(DELAY), db: t.db, logger: false });
    try {
      await next.ready();
      // Not due at the next node's start: its start-up sent no twin, and nothing settled it.
      expect(await jobs()).toEqual(['created']);
      expect(await read()).toBe('PENDING');
      // Time passes: the check and its job are due.
      await makeOverdue(sub);
      await t.db.execute(`update pgboss.job set start_after = now() where name = 'kyc-settle' and singleton_key = $1`, [
        check!.id,
      ]);
      await expect.poll(read, { timeout: 15_000, interval: 100 }).toBe('VERIFIED');
      // The job the first node sent settled it.
      await expect.poll(jobs, { timeout: 5_000, interval: 100 }).toEqual(['completed']);
    } finally {
      await next.close();
    }
  }, 40_000);
});

describe('connect service: no sandbox in production unless KYC_SANDBOX=on', () => {
  let t: TestContext;
  beforeAll(async () => {
    // KYC_SANDBOX=off is what NODE_ENV=production without Onfido means (see the config test below).
    t = await createTestApp({ KYC_SANDBOX: 'off' });
  });
  afterAll(() => t?.close());
  const { call, newUser, status } = helpers(() => t);

  it('answers 503 on token and create-check, starts nothing, and the status still reads', async () => {
    const { sub, headers } = await newUser();
    for (const [method, url, body] of [
      ['GET', '/kyc/token', undefined],
      ['POST', '/kyc/create-check', { sandbox: MATCHING }],
    ] as const) {
      const res = await call(method, url, headers, body);
      expect(res.statusCode, url).toBe(503);
      expect(ZProblem.parse(res.json()).detail).toBe(KYC_MESSAGES.unavailable);
    }
    expect(await status(headers)).toMatchObject({ status: 'UNVERIFIED', isAvailable: false, check: null });
    expect(await t.db.db.select().from(kycApplicants).where(eq(kycApplicants.userId, sub))).toEqual([]);
  });

  it('defaults: the sandbox verifies outside production only', () => {
    expect(testConfig({ NODE_ENV: 'development' }).kyc.sandboxAllowed).toBe(true);
    expect(testConfig(PRODUCTION_ENV).kyc.sandboxAllowed).toBe(false);
    // Issue 27: production refuses to start with the sandbox on (production-checks.ts).
    expect(() => testConfig({ ...PRODUCTION_ENV, KYC_SANDBOX: 'on' })).toThrow(/KYC_SANDBOX=on is forbidden/);
    expect(testConfig({ KYC_SANDBOX: 'off' }).kyc.sandboxAllowed).toBe(false);
  });
});

describe('connect service: identity verification with Onfido', () => {
  const fake = new FakeOnfido('api_live.test');
  let t: TestContext;
  beforeAll(async () => {
    await fake.start();
    t = await createTestApp({
      ONFIDO_API_TOKEN: 'api_live.test',
      ONFIDO_REGION: 'US',
      ONFIDO_WEBHOOK_TOKEN: 'whk-secret',
      ONFIDO_API_URL: fake.baseUrl,
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });
  const { call, newUser, status } = helpers(() => t);

  const webhook = (body: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/connect/kyc/webhook',
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-sha2-signature': signature } : {}) },
      payload: body,
    });
  const completedEvent = (checkId: string) =>
    JSON.stringify({
      payload: {
        resource_type: 'check',
        action: 'check.completed',
        object: { id: checkId, status: 'complete', completed_at_iso8601: new Date().toISOString() },
      },
    });

  it('creates one applicant for concurrent token requests of a user, and the same one afterwards', async () => {
    const session = await newUser();
    const before = fake.applicants.size;
    const tokens = await Promise.all(
      Array.from({ length: 5 }, async () =>
        ZKycSdkToken.parse((await call('GET', '/kyc/token', session.headers)).json()),
      ),
    );
    expect(new Set(tokens.map((token) => token.applicantId)).size).toBe(1);
    const again = ZKycSdkToken.parse((await call('GET', '/kyc/token', session.headers)).json());
    expect(again.applicantId).toBe(tokens[0]!.applicantId);
    expect(fake.applicants.size - before).toBe(1);
  });

  async function startCheck() {
    const session = await newUser();
    const token = ZKycSdkToken.parse((await call('GET', '/kyc/token', session.headers)).json());
    expect(token).toMatchObject({ provider: 'onfido', isSandbox: false, region: 'US' });
    expect(fake.applicants.get(token.applicantId)).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    const res = await call('POST', '/kyc/create-check', session.headers, {});
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.db.db.select().from(kycChecks).where(eq(kycChecks.userId, session.sub));
    return { ...session, checkId: row!.checkId };
  }

  it('says in the runtime configuration that KYC is real', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/runtime-config.json' })).json().sandboxes.kyc).toBe(false);
  });

  it('refuses sandbox input when Onfido is configured', async () => {
    const { headers } = await newUser();
    const res = await call('POST', '/kyc/create-check', headers, { sandbox: MATCHING });
    expect(res.statusCode).toBe(400);
    expect(ZProblem.parse(res.json()).invalidParams).toEqual([{ name: 'sandbox', reason: KYC_MESSAGES.sandboxOnly }]);
  });

  it('a signed check.completed webhook settles the check: VERIFIED with matching document names', async () => {
    const { headers, checkId } = await startCheck();
    expect((await status(headers)).status).toBe('PENDING');
    fake.complete(checkId, { result: 'clear', firstName: 'ADA', lastName: 'LOVELACE' });
    const body = completedEvent(checkId);
    const res = await webhook(body, onfidoSignature(body, 'whk-secret'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(await status(headers)).toMatchObject({ status: 'VERIFIED', check: { documentLastName: 'LOVELACE' } });
  });

  it('an unsigned or wrongly signed webhook is refused and changes nothing', async () => {
    const { headers, checkId } = await startCheck();
    fake.complete(checkId, { result: 'clear', firstName: 'Ada', lastName: 'Lovelace' });
    const body = completedEvent(checkId);
    expect((await webhook(body)).statusCode).toBe(401);
    const wrong = await webhook(body, onfidoSignature(body, 'not-the-token'));
    expect(wrong.statusCode).toBe(401);
    expect(ZProblem.parse(wrong.json()).detail).toMatch(/signature/);
    expect((await webhook(body, onfidoSignature(`${body}x`, 'whk-secret'))).statusCode).toBe(401);
    const [row] = await t.db.db.select().from(kycChecks).where(eq(kycChecks.checkId, checkId));
    expect(row?.status).toBe('PENDING');
    // Status reads poll Onfido, at most once a minute per check; the first read here finds the result.
    expect((await status(headers)).status).toBe('VERIFIED');
  });

  it('a document with other names ends FAILED (NAME_MISMATCH) and may be retried', async () => {
    const { headers, checkId } = await startCheck();
    fake.complete(checkId, { result: 'clear', firstName: 'Augusta', lastName: 'King' });
    const body = completedEvent(checkId);
    expect((await webhook(body, onfidoSignature(body, 'whk-secret'))).statusCode).toBe(200);
    expect((await status(headers)).check).toMatchObject({ status: 'FAILED', reason: 'NAME_MISMATCH' });
    expect((await call('POST', '/kyc/create-check', headers, {})).statusCode).toBe(200);
    expect((await status(headers)).status).toBe('PENDING');
  });

  it('answers a webhook with 502 while Onfido cannot be read, so Onfido delivers it again', async () => {
    const { headers, checkId } = await startCheck();
    fake.complete(checkId, { result: 'clear', firstName: 'Ada', lastName: 'Lovelace' });
    const body = completedEvent(checkId);
    fake.failWith = 503;
    try {
      expect((await webhook(body, onfidoSignature(body, 'whk-secret'))).statusCode).toBe(502);
    } finally {
      fake.failWith = undefined;
    }
    expect((await webhook(body, onfidoSignature(body, 'whk-secret'))).statusCode).toBe(200);
    expect((await status(headers)).status).toBe('VERIFIED');
  });

  it('a webhook about a check this portal does not know is acknowledged and ignored', async () => {
    const body = completedEvent('unknown-check');
    expect((await webhook(body, onfidoSignature(body, 'whk-secret'))).statusCode).toBe(200);
  });

  it('an Onfido outage answers 502 without starting a check', async () => {
    const { sub, headers } = await newUser();
    expect((await call('GET', '/kyc/token', headers)).statusCode).toBe(200);
    fake.failWith = 500;
    try {
      const res = await call('POST', '/kyc/create-check', headers, {});
      expect(res.statusCode).toBe(502);
      expect(res.body).not.toContain('Onfido');
    } finally {
      fake.failWith = undefined;
    }
    expect((await status(headers)).status).toBe('UNVERIFIED');
    expect(await t.db.db.select().from(kycChecks).where(eq(kycChecks.userId, sub))).toEqual([]);
  });
});

describe('requireVerifiedIdentity (for mainnet networks, applications and tokens)', () => {
  it('lets VERIFIED through and refuses the rest with 409 and a clear message', () => {
    expect(() => requireVerifiedIdentity({ kycStatus: 'VERIFIED' })).not.toThrow();
    for (const kycStatus of ['UNVERIFIED', 'FAILED'] as const) {
      expect(() => requireVerifiedIdentity({ kycStatus })).toThrow(
        expect.objectContaining({ status: 409, detail: KYC_MESSAGES.mainnetRequiresVerification }),
      );
    }
    expect(() => requireVerifiedIdentity({ kycStatus: 'PENDING' })).toThrow(
      expect.objectContaining({ status: 409, detail: KYC_MESSAGES.mainnetVerificationPending }),
    );
  });
});
