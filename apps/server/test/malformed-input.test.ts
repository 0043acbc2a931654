import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZProblem, ZTokenResponse } from '@connect/shared';
import {
  activate,
  addNetwork,
  allowUnlimitedApplications,
  createApplication,
  newAppUser,
  type TestUser,
} from '../src/services/application-manager/testing.ts';
import { issueAuthentication } from '../src/services/identity/tokens.ts';
import { createTestApp, signInAs, TEST_CLIENT_ID, type TestContext } from './helpers.ts';
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
const NUL = 'a\u0000b';

// ---------------------------------------------------------------------------------------------
// Requests and what every answer must satisfy
// ---------------------------------------------------------------------------------------------

type Auth = 'none' | 'user' | 'garbage';
type Body = { type: string | undefined; text: string };
type Probe = {
  method: string;
  url: string;
  auth: Auth;
  headers?: Record<string, string>;
  body?: Body;
};

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
 * limit of attempts (`Attempt limit exceeded`), as they must; everything else on the user's row
 * stays as it was.
 */
const COUNTED_ATTEMPTS: Record<string, string[]> = {
  NotAuthorizedException: ['public.idp_users', 'public.idp_events'],
  CodeMismatchException: ['public.idp_events'],
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

/** Waits until the database stops changing (two equal snapshots 20 ms apart, within a second). */
async function settle() {
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

// ---------------------------------------------------------------------------------------------
// Hostile values
// ---------------------------------------------------------------------------------------------

const HUGE = 'x'.repeat(70_000);
const OVER_LIMIT = `{"a":"${'x'.repeat(1_100_000)}"}`;

const hostileString = fc.oneof(
  // The NUL character first and most often: PostgreSQL cannot store it (issue 11 §3).
  { arbitrary: fc.constantFrom(NUL, '\u0000'), weight: 3 },
  fc.constantFrom('', ' ', '\uFEFF', '\uD800', '%00', '../../etc/passwd', "' or 1=1 --", '<script>'),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'null', 'undefined', 'NaN', '-1', '1e400'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('x'.repeat(101), 'é'.repeat(3_000), HUGE),
);

const hostileNumber = fc.constantFrom(
  -1,
  0,
  0.5,
  -0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
);

/** Any value of a kind the field may not expect. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Bodies that are not the JSON they claim to be, or not JSON at all. */
const rawBody: fc.Arbitrary<Body> = fc.oneof(
  fc
    .constantFrom(
      '',
      '{',
      '{"a":',
      '[1,]',
      'nul',
      'null',
      'true',
      '0',
      '"\\u0000"',
      '1e400',
      '{"a":1e400}',
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"a":"\\ud800"}',
      '\uFEFF{}',
      `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
      OVER_LIMIT,
    )
    .map((text) => ({ type: 'application/json', text })),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ type: 'application/json', text })),
  fc.constantFrom<Body>(
    { type: 'application/xml', text: '<a>1</a>' },
    { type: 'text/plain', text: NUL },
    { type: 'application/x-www-form-urlencoded', text: 'a=1&b=%00&c=%zz' },
    { type: 'multipart/form-data; boundary=x', text: '--x\r\n' },
    { type: 'application/json; charset=utf-16', text: '{}' },
    { type: 'application/octet-stream', text: '\u0000\u0001' },
    { type: undefined, text: '{}' },
  ),
);

/**
 * Percent-encodes the UTF-8 bytes of any string, lone surrogates included (as U+FFFD, like a
 * browser), where encodeURIComponent would throw.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const json = (value: unknown): Body => ({ type: 'application/json', text: JSON.stringify(value) ?? 'null' });

/** Sets a key as an own enumerable property, so `__proto__` becomes a key of the JSON text. */
function withKey(target: unknown, key: string, value: unknown): unknown {
  const copy = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Generators from the OpenAPI document's JSON Schemas
// ---------------------------------------------------------------------------------------------

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: Schema };
type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
};

let components: Record<string, Schema> = {};
/** Ids that exist and belong to the ordinary user (or to nobody), so probes reach past "not found". */
let knownIds: string[] = [];

function resolve(schema: Schema): Schema {
  if (!schema.$ref) return schema;
  return resolve(components[schema.$ref.split('/').pop()!] ?? {});
}

const typeOf = (schema: Schema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** A value that roughly satisfies the schema (a starting point for one mutation). */
function plausible(input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return fc.oneof(...options.map((option) => plausible(option, depth + 1)));
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  switch (typeOf(schema)) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...knownIds), fc.uuid());
      return fc.string({
        minLength: Math.min(schema.minLength ?? 0, 20),
        maxLength: Math.max(Math.min(schema.maxLength ?? 20, 20), Math.min(schema.minLength ?? 0, 20)),
      });
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6) });
    case 'number':
      return fc.double({
        min: Math.max(schema.minimum ?? -1e6, -1e6),
        max: Math.min(schema.maximum ?? 1e6, 1e6),
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 3) return fc.constant([]);
      return fc.array(plausible(schema.items ?? {}, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.max(Math.min(schema.maxItems ?? 3, 3), Math.min(schema.minItems ?? 0, 3)),
      });
    case 'object': {
      if (depth > 3 || !schema.properties) return fc.constant({});
      const model = Object.fromEntries(
        Object.entries(schema.properties).map(([key, sub]) => [key, plausible(sub, depth + 1)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value that breaks the schema in one place: wrong type, missing field, hostile string, extra key … */
function broken(input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  const kind = typeOf(schema);
  if (kind === 'object' && schema.properties && depth <= 3) {
    const properties = schema.properties;
    const keys = Object.keys(properties);
    const inOneField = fc.constantFrom(...keys).chain((key) =>
      fc
        .tuple(
          plausible(schema, depth),
          fc.oneof(
            fc.constant({ drop: true as const }),
            wrongValue.map((value) => ({ value })),
            broken(properties[key]!, depth + 1).map((value) => ({ value })),
          ),
        )
        .map(([value, change]) => {
          const copy = { ...(value as object) } as Record<string, unknown>;
          if ('drop' in change) delete copy[key];
          else return withKey(copy, key, change.value);
          return copy;
        }),
    );
    const extraKey = fc
      .tuple(
        plausible(schema, depth),
        fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', NUL, 'x'.repeat(300))),
        wrongValue,
      )
      .map(([value, key, extra]) => withKey(value, key, extra));
    return fc.oneof(
      { arbitrary: inOneField, weight: 5 },
      { arbitrary: extraKey, weight: 2 },
      { arbitrary: plausible(schema, depth).map((value) => [value]), weight: 1 },
      { arbitrary: wrongValue, weight: 1 },
    );
  }
  if (kind === 'array' && depth <= 3) {
    const items = schema.items ?? {};
    return fc.oneof(
      fc.array(broken(items, depth + 1), { minLength: 1, maxLength: 3 }),
      plausible(items, depth + 1).map((item) => Array.from({ length: (schema.maxItems ?? 100) + 1 }, () => item)),
      plausible(items, depth + 1),
      wrongValue,
    );
  }
  return wrongValue;
}

const malformedBody = (schema: Schema | undefined): fc.Arbitrary<Body> =>
  schema
    ? fc.oneof({ arbitrary: broken(schema).map(json), weight: 6 }, { arbitrary: rawBody, weight: 2 })
    : fc.oneof(wrongValue.map(json), rawBody);

/** Path segments: ids that exist, and what a router, a decoder or a database may choke on. */
const pathValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...knownIds), weight: 3 },
    { arbitrary: fc.uuid(), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '%00',
        'a%00b',
        '%zz',
        '%',
        'x'.repeat(101),
        'x'.repeat(3_000),
        '..',
        '%2e%2e',
        'a%2Fb',
        '%20',
        '-1',
        '0',
        '1e400',
        'null',
        '__proto__',
        '%F0%9F%92%A9',
        '%ED%A0%80',
      ),
      weight: 3,
    },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(percentEncode), weight: 1 },
  );

/** Query values as they appear on the wire (already percent-encoded). */
const queryValue = (schema: Schema | undefined): fc.Arbitrary<string> =>
  fc.oneof(
    plausible(schema ?? {}).map((value) => percentEncode(String(value))),
    fc.constantFrom('%00', 'a%00b', '%zz', '%', '', '-1', '1e400', '99999999999999999999999', 'NaN', '0x10', '+1'),
    fc.constantFrom('x'.repeat(5_000), percentEncode('é'.repeat(2_000))),
    fc.string({ unit: 'grapheme', maxLength: 30 }).map(percentEncode),
  );

function queryOf(parameters: Parameter[]): fc.Arbitrary<string> {
  const names = parameters.filter((p) => p.in === 'query');
  const pair = fc.oneof(
    ...names.map((p) => queryValue(p.schema).map((value) => `${percentEncode(p.name)}=${value}`)),
    queryValue(undefined).map((value) => `unknown=${value}`),
    fc.constantFrom('a[b]=1', '__proto__[x]=1', '=1', '&&', names[0] ? `${names[0].name}` : 'flag'),
  );
  return fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

/** A header value the operation declares, hostile but sendable (no control characters). */
const headerValue = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
  fc.constant('x'.repeat(5_000)),
);

function probesFor(operation: Operation): fc.Arbitrary<Probe> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const headerParams = operation.parameters.filter((p) => p.in === 'header');
  const hasBody = !['GET', 'HEAD'].includes(operation.method);
  return fc
    .record({
      auth: fc.constantFrom<Auth>('none', 'user', 'user', 'garbage'),
      path: fc.tuple(...pathParams.map(() => pathValue())),
      query: queryOf(operation.parameters),
      headers: fc.tuple(...headerParams.map(() => headerValue)),
      body: hasBody ? malformedBody(operation.body).map((body) => body as Body | undefined) : fc.constant(undefined),
    })
    .map(({ auth, path, query, headers, body }) => {
      let i = 0;
      const url = operation.path.replace(/\{[^}]+\}/g, () => path[i++]!) + query;
      return {
        method: operation.method,
        url,
        auth,
        headers: Object.fromEntries(headerParams.map((p, j) => [p.name, headers[j]!])),
        ...(body ? { body } : {}),
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Hand-written generators: /oauth2/token, the gateway, /idp
// ---------------------------------------------------------------------------------------------

type Client = { id: string; secret: string };
let client: Client;
let networkRefs: string[] = [];
let platformToken: string;
let idpUser: { email: string; accessToken: string };

const basic = (id: string, secret: string, encode = true) =>
  `Basic ${Buffer.from(`${encode ? percentEncode(id) : id}:${encode ? percentEncode(secret) : secret}`).toString('base64')}`;

function tokenProbes(): fc.Arbitrary<Probe> {
  const short = hostileString.filter((text) => text.length < 5_000);
  // Mostly requests that get as far as the credentials (the lookup is where a value meets the database).
  const grant = fc.oneof(
    { arbitrary: fc.constant('client_credentials'), weight: 4 },
    fc.constantFrom('password', ''),
    short,
  );
  const id = fc.oneof(fc.constant(client.id), short);
  const secret = fc.oneof(fc.constant(client.secret), fc.constant('wrong'), short);
  const form = (fields: Record<string, unknown>): Body => ({
    type: 'application/x-www-form-urlencoded',
    text: Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${percentEncode(String(value))}`)
      .join('&'),
  });
  const wellShaped = fc
    .record({
      grant: fc.option(grant, { nil: undefined, freq: 6 }),
      id,
      secret,
      sentIn: fc.constantFrom('basic', 'basic-unencoded', 'body', 'both', 'nowhere'),
      encoding: fc.constantFrom('form', 'json'),
      odd: fc.option(wrongValue, { nil: undefined, freq: 2 }),
    })
    .map(({ grant: grantType, id: clientId, secret: clientSecret, sentIn, encoding, odd }) => {
      const inBody = sentIn === 'body' || sentIn === 'both';
      const fields: Record<string, unknown> = {
        grant_type: grantType,
        ...(inBody ? { client_id: clientId, client_secret: clientSecret } : {}),
        // JSON may carry a value of the wrong type in place of one of them.
        ...(odd !== undefined && encoding === 'json' ? { client_id: odd } : {}),
      };
      const header =
        sentIn === 'basic' || sentIn === 'both'
          ? basic(clientId, clientSecret)
          : sentIn === 'basic-unencoded'
            ? basic(clientId, clientSecret, false)
            : undefined;
      return { body: encoding === 'form' ? form(fields) : json(fields), header };
    });
  const oddShaped = fc.record({
    body: fc.oneof(
      rawBody,
      fc
        .constantFrom(
          'grant_type=client_credentials&client_id=%zz',
          'client_id=%00',
          '&&=',
          `client_id=${'x'.repeat(20_000)}`,
        )
        .map((text): Body => ({ type: 'application/x-www-form-urlencoded', text })),
      fc.constant(undefined),
    ),
    header: fc.constantFrom(
      undefined,
      'Basic',
      'Basic !!!',
      'Basic Zm9v',
      `Basic ${'A'.repeat(10_000)}`,
      'Bearer x',
      'basic %zz',
      basic('%zz', 'x', false),
      basic(client.id, '%E0%A4%A', false),
    ),
  });
  return fc
    .oneof({ arbitrary: wellShaped, weight: 4 }, { arbitrary: oddShaped, weight: 1 })
    .map(({ body, header }): Probe => ({
      method: 'POST',
      url: '/oauth2/token',
      auth: 'none' as const,
      headers: header ? { authorization: header } : {},
      ...(body ? { body } : {}),
    }));
}

const RPC_METHODS = [
  'eth_chainId',
  'eth_blockNumber',
  'net_version',
  'eth_getBalance',
  'eth_call',
  'eth_getLogs',
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'eth_sign',
  'personal_unlockAccount',
  'anvil_setBalance',
  'evm_mine',
  'debug_traceTransaction',
  'admin_peers',
  '',
  NUL,
  'x'.repeat(5_000),
];

function gatewayProbes(): fc.Arbitrary<Probe> {
  const call = fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), wrongValue),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), wrongValue),
      method: fc.oneof(fc.constantFrom(...RPC_METHODS), wrongValue),
      params: fc.oneof(
        fc.constant([]),
        fc.constant([{ fromBlock: '0x0', toBlock: 'latest' }]),
        fc.constant([{ fromBlock: '0x0', toBlock: '0xffffffffffff' }]),
        fc.constant(['0x0000000000000000000000000000000000000000', 'latest']),
        wrongValue,
      ),
    },
    { requiredKeys: ['method'] },
  );
  const body = fc.oneof(
    { arbitrary: call.map(json), weight: 4 },
    { arbitrary: fc.array(call, { minLength: 0, maxLength: 5 }).map(json), weight: 2 },
    {
      arbitrary: fc.constantFrom(0, 100, 101).chain((n) => call.map((c) => json(Array.from({ length: n }, () => c)))),
      weight: 1,
    },
    { arbitrary: fc.array(wrongValue, { maxLength: 3 }).map(json), weight: 1 },
    { arbitrary: rawBody, weight: 2 },
  );
  const network = fc.oneof(
    { arbitrary: fc.constantFrom(...networkRefs), weight: 4 },
    { arbitrary: pathValue(), weight: 2 },
  );
  const authorization = fc.oneof(
    { arbitrary: fc.constant(`Bearer ${platformToken}`), weight: 4 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer x.y.z',
        'Bearer',
        `Bearer ${'a'.repeat(10_000)}`,
        'Basic Zm9vOmJhcg==',
      ),
      weight: 1,
    },
    { arbitrary: fc.constant('user'), weight: 1 },
  );
  return fc.record({ network, body, authorization }).map(({ network: ref, body: b, authorization: header }): Probe => ({
    method: 'POST',
    url: `/api/gateway/${ref}`,
    auth: header === 'user' ? ('user' as const) : ('none' as const),
    headers: header && header !== 'user' ? { authorization: header } : {},
    body: b,
  }));
}

const IDP_OPERATIONS = [
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'InitiateAuth',
  'GetTokensFromRefreshToken',
  'RespondToAuthChallenge',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'GetUser',
  'ChangePassword',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'GlobalSignOut',
  'RevokeToken',
];

/** Sets `a.b.0.c` in a copy of a JSON value (creating what is missing); `undefined` removes it. */
function setPath(target: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const container = (target && typeof target === 'object' ? target : {}) as Record<string, unknown>;
  const copy: Record<string, unknown> = Array.isArray(container) ? ([...container] as never) : { ...container };
  const next = setPath(copy[head], rest, value);
  if (next === undefined) delete copy[head];
  else copy[head] = next;
  return copy;
}

function idpProbes(): fc.Arbitrary<Probe> {
  const text = fc.oneof(fc.string({ maxLength: 20 }), hostileString, wrongValue);
  const email = fc.oneof(fc.constant(idpUser.email), fc.emailAddress());
  const password = fc.oneof(fc.constant('Correct-Horse-1'), fc.string({ minLength: 1, maxLength: 20 }));
  const code = fc.oneof(fc.constant('123456'), fc.stringMatching(/^\d{6}$/));
  const token = fc.oneof(fc.constant(idpUser.accessToken), fc.constantFrom('a.b.c', 'x'));
  // Bodies that would pass the operation's schema, so the one hostile value below reaches the pool.
  const plausibleFields = fc.record({
    ClientId: fc.constant(TEST_CLIENT_ID),
    Username: email,
    Password: password,
    ConfirmationCode: code,
    AuthFlow: fc.constantFrom('USER_PASSWORD_AUTH', 'USER_SRP_AUTH', 'REFRESH_TOKEN_AUTH', 'CUSTOM_AUTH'),
    AuthParameters: fc.record({ USERNAME: email, PASSWORD: password, REFRESH_TOKEN: token }),
    AccessToken: token,
    RefreshToken: token,
    Token: token,
    Session: fc.string({ minLength: 1, maxLength: 20 }),
    ChallengeName: fc.constantFrom('SOFTWARE_TOKEN_MFA', 'NEW_PASSWORD_REQUIRED', 'MFA_SETUP', 'SMS_MFA'),
    ChallengeResponses: fc.record({ USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code, NEW_PASSWORD: password }),
    UserAttributes: email.map((value) => [{ Name: 'email', Value: value }]),
    ValidationData: fc.constant([]),
    UserCode: code,
    PreviousPassword: password,
    ProposedPassword: password,
  });
  const places = [
    'ClientId',
    'Username',
    'Password',
    'ConfirmationCode',
    'AuthFlow',
    'AuthParameters',
    'AuthParameters.USERNAME',
    'AuthParameters.PASSWORD',
    'AuthParameters.REFRESH_TOKEN',
    'AccessToken',
    'RefreshToken',
    'Token',
    'Session',
    'ChallengeName',
    'ChallengeResponses',
    'ChallengeResponses.USERNAME',
    'ChallengeResponses.SOFTWARE_TOKEN_MFA_CODE',
    'UserAttributes',
    'UserAttributes.0.Name',
    'UserAttributes.0.Value',
    'ValidationData',
    'UserCode',
    'ProposedPassword',
  ];
  const fields = fc
    .tuple(plausibleFields, fc.constantFrom(...places), fc.option(text, { nil: undefined, freq: 5 }))
    .map(([body, place, value]) => setPath(body, place.split('.'), value));
  const target = fc.oneof(
    { arbitrary: fc.constantFrom(...IDP_OPERATIONS).map((op) => `AWSCognitoIdentityProviderService.${op}`), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        '',
        'AWSCognitoIdentityProviderService.AdminCreateUser',
        'AWSCognitoIdentityProviderService.',
        'SignUp',
        'AWSCognitoIdentityProviderService.__proto__',
        'AWSCognitoIdentityProviderService.constructor',
      ),
      weight: 1,
    },
  );
  const body = fc.oneof(
    { arbitrary: fields.map((f) => ({ type: 'application/x-amz-json-1.1', text: JSON.stringify(f) })), weight: 6 },
    {
      arbitrary: wrongValue.map((v) => ({ type: 'application/x-amz-json-1.1', text: JSON.stringify(v) ?? '' })),
      weight: 1,
    },
    {
      arbitrary: rawBody.map((b) => (b.type === 'application/json' ? { ...b, type: 'application/x-amz-json-1.1' } : b)),
      weight: 2,
    },
  );
  return fc.record({ target, body }).map(({ target: op, body: b }): Probe => ({
    method: 'POST',
    url: '/idp',
    auth: 'none' as const,
    headers: op === undefined ? {} : { 'x-amz-target': op },
    body: b,
  }));
}

// ---------------------------------------------------------------------------------------------
// Set-up: an ordinary user with an application on a network served by a fake JSON-RPC upstream
// ---------------------------------------------------------------------------------------------

/** Answers every JSON-RPC call with a result, so the gateway forwards without a chain. */
function fakeUpstream(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = null;
      }
      const answer = (call: unknown) => ({
        jsonrpc: '2.0',
        id: (call as { id?: unknown } | null)?.id ?? null,
        result: '0x1',
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready(server)));
}

const OPERATIONS_BY_HAND = new Set(['POST /oauth2/token', 'POST /api/gateway/{networkId}', 'POST /idp']);

// A sandbox verification settles at once, while settle() waits after the request that started it.
const t0 = await createTestApp({ KYC_SANDBOX_DELAY_MS: '0' });
const document = t0.app.swagger() as {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
  >;
  components?: { schemas?: Record<string, Schema> };
};
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, spec]) => ({
    method: method.toUpperCase(),
    path,
    parameters: spec.parameters ?? [],
    ...(spec.requestBody?.content?.['application/json']?.schema
      ? { body: spec.requestBody.content['application/json'].schema }
      : {}),
  })),
);

describe('malformed input: no 5xx, problem details, nothing written after a refusal', () => {
  let upstream: Server;

  beforeAll(async () => {
    t = t0;
    components = document.components?.schemas ?? {};
    snapshot = tableSnapshotter(t.db, { alsoWithout: { 'public.idp_users': SIGN_IN_COUNTERS } });
    upstream = await fakeUpstream();
    user = await newAppUser(t);
    await allowUnlimitedApplications(t, user.accountId);
    const network = await addNetwork(t, {
      rpcUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      rateLimit: 1_000_000,
    });
    await activate(t, user.accountId, network.id);
    // One application for the document's operations to edit or delete, one for the platform API.
    const application = await createApplication(t, user, [network.id]);
    const platformApplication = await createApplication(t, user, [network.id]);
    client = { id: platformApplication.clientId, secret: platformApplication.clientSecret };
    networkRefs = [network.id, network.code];
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials',
    });
    platformToken = ZTokenResponse.parse(token.json()).access_token;
    const pooled = await signInAs(t);
    idpUser = { email: pooled.email, accessToken: pooled.accessToken };
    knownIds = [user.sub, user.accountId, application.id, network.id, '00000000-0000-0000-0000-000000000000'];
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

  it('POST /oauth2/token (form and JSON bodies, Basic headers)', () => check(tokenProbes(), RUNS * 6));

  it('POST /idp (the Cognito wire protocol)', () => check(idpProbes(), RUNS * 6));

  // Last: a forwarded call's usage is written by a timer a second later (never on a refusal), so
  // from here on the daily usage table is not compared.
  it('POST /api/gateway/{networkId} (JSON-RPC shapes, against a fake upstream)', async () => {
    ignoredTables = ['public.application_usage_daily'];
    await check(gatewayProbes(), RUNS * 6);
  });
});
