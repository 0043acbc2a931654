import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZProblem, ZTokenResponse } from '@connect/shared';
import {
  activate,
  addNetwork,
  liftPlanLimits,
  createApplication,
  newAppUser,
  type TestUser,
} from '../src/services/application-manager/testing.ts';
import { issueAuthentication } from '../src/services/identity/sessions.ts';
import { fakeUpstream } from './fake-upstream.ts';
import { createTestApp, signInAs, type TestContext } from './helpers.ts';
import { documentArbitraries, operationsOf, type OpenApiDocument, type Probe } from './openapi-fuzz.ts';
import { basic, gatewayProbes, idpProbes, tokenProbes, type PlatformTargets } from './platform-fuzz.ts';
import { changedTables, tableSnapshotter, type TableSnapshot } from './table-snapshot.ts';

/**
 * Issue 11 §9, "keep it fixed": a property-based test that sends malformed bodies, query strings
 * and path ids to every operation of the OpenAPI document, unauthenticated and as an ordinary
 * user, and fails on any 5xx, on an /api error that is not problem details, and on any write
 * after a rejection (every table's row count and checksum, before and after each request). The
 * three interfaces the document does not describe well have hand-written generators: the OAuth2
 * token endpoint, the JSON-RPC gateway (against a fake upstream, so no chain is needed) and the
 * /idp wire protocol.
 *
 * Deterministic: a fixed seed (FUZZ_SEED replaces it) and a bounded number of runs per operation
 * (FUZZ_RUNS); fast-check prints the seed, the path and the shrunk request on failure, so
 * `FUZZ_SEED=<seed> npx vitest run apps/server/test/malformed-input.test.ts` replays it.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);

// ---------------------------------------------------------------------------------------------
// Requests and what every answer must satisfy
// ---------------------------------------------------------------------------------------------

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** How fast-check prints a probe in a counterexample: bodies of a megabyte are clipped. */
function withPrinter(probe: Probe): Probe {
  return Object.defineProperty(probe, fc.toStringMethod, {
    value: () =>
      JSON.stringify({
        ...probe,
        url: clip(probe.url),
        headers: Object.fromEntries(Object.entries(probe.headers ?? {}).map(([k, v]) => [k, clip(v)])),
        ...(probe.body ? { body: { type: probe.body.type, text: clip(probe.body.text) } } : {}),
      }),
  });
}

/** RFC 6749 §5.2: what /oauth2/token answers for bad credentials (a body it cannot read is problem details). */
const ZOAuthError = z.object({ error: z.string(), error_description: z.string().optional() });

/** The identity pool's count of failed sign-ins (Cognito's lockout), kept on the user's row. */
const SIGN_IN_COUNTERS = ['failed_sign_ins', 'last_failed_sign_in_at', 'locked_until', 'updated_at'];

/**
 * What a refused /idp request may write, by the contract of the interface: a wrong password counts
 * towards the pool's lockout (`Password attempts exceeded`) and a wrong code towards the hourly
 * limit of attempts (`Attempt limit exceeded`) and the code's own wrong attempts (the one that
 * reaches the limit spends the code: ExpiredCodeException), as they must; everything else on the
 * user's row stays as it was.
 */
const COUNTED_ATTEMPTS: Record<string, string[]> = {
  NotAuthorizedException: ['public.idp_users', 'public.idp_events'],
  CodeMismatchException: ['public.idp_events', 'public.idp_codes'],
  ExpiredCodeException: ['public.idp_events', 'public.idp_codes'],
};

let t: TestContext;
let snapshot: () => Promise<TableSnapshot>;
let last: TableSnapshot;
let user: TestUser;
let ignoredTables: string[] = [];

function headersOf(probe: Probe): Record<string, string> {
  const headers: Record<string, string> = { ...probe.headers };
  if (probe.auth === 'user') headers.authorization = user.headers.authorization;
  if (probe.auth === 'garbage') headers.authorization = 'Bearer not.a.token';
  if (probe.body?.type) headers['content-type'] = probe.body.type;
  return headers;
}

/** Sends one probe and checks the answer; a broken rule throws (fails the property) with the request and answer. */
async function send(probe: Probe): Promise<void> {
  const options: InjectOptions = {
    method: probe.method as InjectOptions['method'],
    url: probe.url,
    headers: headersOf(probe),
    ...(probe.body ? { payload: probe.body.text } : {}),
  };
  const res = await t.app.inject(options);
  const after = await snapshot();
  const before = last;
  last = after;
  const where = `${probe.method} ${clip(probe.url)} (${probe.auth}) answered ${res.statusCode}: ${clip(res.body, 400)}`;

  expect(res.statusCode, where).toBeLessThan(500);
  if (res.statusCode < 400) {
    // A session-ending operation that succeeded signed the ordinary user out; give them a new session.
    if (/sign-?out/i.test(probe.url) && probe.auth === 'user') await renewUserSession();
    // Work a success started in the background (a verification settling) must not land on a refusal.
    if (probe.method !== 'GET') await settle();
    return;
  }
  const path = probe.url;
  if (path.startsWith('/api/')) {
    expect(res.headers['content-type'], where).toMatch(/^application\/problem\+json/);
    const problem = ZProblem.safeParse(res.json());
    expect(problem.success, where).toBe(true);
    expect(problem.data?.status, where).toBe(res.statusCode);
  }
  if (path.startsWith('/oauth2/token')) {
    const body: unknown = res.json();
    expect(ZOAuthError.safeParse(body).success || ZProblem.safeParse(body).success, where).toBe(true);
  }
  let allowed: string[] = ignoredTables;
  // Cognito's wire errors: `{__type, message}` with the type in x-amzn-errortype.
  if (path.startsWith('/idp')) {
    const type = (res.json() as { __type?: unknown }).__type;
    expect(typeof type, where).toBe('string');
    expect(res.headers['x-amzn-errortype'], where).toBe(type);
    allowed = [...allowed, ...(COUNTED_ATTEMPTS[type as string] ?? [])];
  }
  const written = changedTables(before, after).filter((table) => !allowed.includes(table));
  expect(written, `${where}\nwrote after refusing`).toEqual([]);
}

/** Runs the property with this suite's seed and bounds. */
async function check(arbitrary: fc.Arbitrary<Probe>, numRuns = RUNS) {
  await fc.assert(
    fc.asyncProperty(arbitrary.map(withPrinter), (probe) => {
      return send(probe);
    }),
    { seed: SEED, numRuns },
  );
}

/**
 * Delivers due events, then waits until the database stops changing (two equal snapshots 20 ms
 * apart, within a second): a real wait, the quiet window is what it looks for.
 */
async function settle() {
  // Events a success announced are delivered now, not by the poller behind a later refusal.
  await t.app.events.drain();
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = await snapshot();
    const isQuiet = changedTables(last, now).length === 0;
    last = now;
    if (isQuiet) return;
  }
}

async function renewUserSession() {
  const { deps } = t.app;
  const result = await issueAuthentication(deps.db, deps.keys!, deps.pool, {
    sub: user.sub,
    username: user.email,
    email: user.email,
    emailVerified: true,
    groups: [],
  });
  user = { ...user, accessToken: result.AccessToken, headers: { authorization: `Bearer ${result.AccessToken}` } };
  // A new session's first request records the sign-in (users.last_login_at); done here, not in a probe.
  const res = await t.app.inject({ method: 'GET', url: `/api/connect/user/${user.sub}`, headers: user.headers });
  expect(res.statusCode).toBe(200);
  last = await snapshot();
}

const OPERATIONS_BY_HAND = new Set(['POST /oauth2/token', 'POST /api/gateway/{networkId}', 'POST /idp']);

// A sandbox verification settles at once, while settle() waits after the request that started it.
const t0 = await createTestApp({ KYC_SANDBOX_DELAY_MS: '0' });
const document = t0.app.swagger() as OpenApiDocument;
const operations = operationsOf(document);
const known = { ids: [] as string[] };
const { pathValue, probesFor } = documentArbitraries(document, known);
let targets: PlatformTargets;

describe('malformed input: no 5xx, problem details, nothing written after a refusal', () => {
  let upstream: Server;

  beforeAll(async () => {
    t = t0;
    snapshot = tableSnapshotter(t.db, { alsoWithout: { 'public.idp_users': SIGN_IN_COUNTERS } });
    upstream = await fakeUpstream();
    user = await newAppUser(t);
    await liftPlanLimits(t, user.accountId);
    const network = await addNetwork(t, {
      rpcUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      rateLimit: 1_000_000,
    });
    await activate(t, user.accountId, network.id);
    // One application for the document's operations to edit or delete, one for the platform API.
    const application = await createApplication(t, user, [network.id]);
    const platformApplication = await createApplication(t, user, [network.id]);
    const client = { id: platformApplication.clientId, secret: platformApplication.clientSecret };
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    const pooled = await signInAs(t);
    targets = {
      client,
      networkRefs: [network.id, network.code],
      platformToken: ZTokenResponse.parse(token.json()).access_token,
      idpUser: { email: pooled.email, accessToken: pooled.accessToken },
      pathValue,
    };
    known.ids = [user.sub, user.accountId, application.id, network.id, '00000000-0000-0000-0000-000000000000'];
    last = await snapshot();
  });
  afterAll(async () => {
    await t0.close();
    await new Promise((done) => upstream?.close(done));
  });

  it('the document names the operations (and the three generated by hand)', () => {
    const names = operations.map((op) => `${op.method} ${op.path}`);
    expect(names.length).toBeGreaterThan(40);
    for (const name of OPERATIONS_BY_HAND) expect(names).toContain(name);
  });

  for (const operation of operations.filter((op) => !OPERATIONS_BY_HAND.has(`${op.method} ${op.path}`))) {
    it(`${operation.method} ${operation.path}`, () => check(probesFor(operation)));
  }

  it('POST /oauth2/token (form and JSON bodies, Basic headers)', () => check(tokenProbes(targets), RUNS * 6));

  it('POST /idp (the Cognito wire protocol)', () => check(idpProbes(targets), RUNS * 6));

  // Last: a forwarded call's usage is written by a timer a second later (never on a refusal), so
  // from here on the usage counters and month spend are not compared.
  it('POST /api/gateway/{networkId} (JSON-RPC shapes, against a fake upstream)', async () => {
    // The usage flush writes its counts and their gateway.usage_counted event behind any request,
    // and the event's delivery to its subscribers (rewards' activities) follows in the background.
    ignoredTables = [
      'public.gateway_usage_hourly',
      'public.application_month_spend',
      'public.outbox_events',
      'public.event_deliveries',
    ];
    await check(gatewayProbes(targets), RUNS * 6);
  });
});
