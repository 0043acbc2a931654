// `npm run bench:api` — not a test. In one run, against a server process on this machine:
//   1. requests/s of a bare JSON route (the baseline),
//   2. requests/s of an authenticated GET /api/connect/user/{id} (JWT verified, user loaded),
//   3. sign-ins/s (InitiateAuth USER_PASSWORD_AUTH, argon2id at OWASP parameters), and the
//      limit argon2id alone sets: the same password check, as many at a time, in this process
//      with no server running (issue 30: a sign-in should cost little beyond its hash),
// and, from a second server started with USER_CACHE_MS=0, the authenticated route with the
// database read on every request. Prints the ratio authenticated/bare (target ≥ 0.5),
// sign-ins/s (target ≥ 40) and sign-ins against argon2id alone (target ≥ 0.7). The database is the embedded PGlite, or DATABASE_URL when set.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { hashPassword, verifyPassword } from '../apps/server/src/lib/passwords.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
/** Sign-ins in flight at once (autocannon's connections), and password checks in the hash-only loop. */
const SIGN_IN_CONNECTIONS = 4;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10); // autocannon's default
const root = path.resolve(import.meta.dirname, '..');

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/api-server.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) =>
      resolve((JSON.parse(line) as { port: number }).port),
    );
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  // Stopped means exited: the server removes its data directory on the way out.
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function idp(base: string, operation: string, body: Record<string, unknown>) {
  const response = await fetch(`${base}/idp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${operation}: ${JSON.stringify(json)}`);
  return json;
}

/** Signs up, confirms with the code from the dev mailbox and signs in: a real user and token. */
async function createSignedInUser(base: string) {
  const config = (await (await fetch(`${base}/runtime-config.json`)).json()) as {
    identity: { userPoolClientId: string };
  };
  const ClientId = config.identity.userPoolClientId;
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'Bench-Passw0rd!';
  await idp(base, 'SignUp', {
    ClientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
  });
  const outbox = (await (await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
    messages: { code: string | null }[];
  };
  const code = outbox.messages.at(-1)?.code;
  if (!code) throw new Error('no sign-up code in the dev outbox');
  await idp(base, 'ConfirmSignUp', { ClientId, Username: email, ConfirmationCode: code });
  const signIn = { AuthFlow: 'USER_PASSWORD_AUTH', ClientId, AuthParameters: { USERNAME: email, PASSWORD: password } };
  const auth = (await idp(base, 'InitiateAuth', signIn)) as { AuthenticationResult: { AccessToken: string } };
  const token = auth.AuthenticationResult.AccessToken;
  const sub = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
  const first = await fetch(`${base}/api/connect/user/${sub}`, { headers: { authorization: `Bearer ${token}` } });
  if (!first.ok) throw new Error(`GET /api/connect/user/{id} answered ${first.status}`);
  return { sub, token, signIn };
}

type Result = { rps: number; failures: number };

/**
 * What argon2id alone allows on this machine: the sign-in's own check (lib/passwords.ts, on
 * libuv's thread pool as in the server), `SIGN_IN_CONNECTIONS` at a time for DURATION seconds.
 */
async function hashOnly(): Promise<number> {
  const password = 'Bench-Passw0rd!';
  const hash = await hashPassword(password);
  const started = performance.now();
  const end = started + DURATION * 1_000;
  let checks = 0;
  await Promise.all(
    Array.from({ length: SIGN_IN_CONNECTIONS }, async () => {
      while (performance.now() < end) {
        if (!(await verifyPassword(hash, password))) throw new Error('the password check failed');
        checks++;
      }
    }),
  );
  const perSecond = checks / ((performance.now() - started) / 1_000);
  console.log(
    `${'argon2id alone (the same check, no server)'.padEnd(44)} ${perSecond.toFixed(0).padStart(7)} checks/s`,
  );
  return perSecond;
}
async function measure(title: string, url: string, options: Partial<autocannon.Options> = {}): Promise<Result> {
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...options, url });
  const failures = result.errors + result.timeouts + result.non2xx;
  console.log(
    `${title.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms${failures ? `   FAILED ${failures}` : ''}`,
  );
  return { rps: result.requests.average, failures };
}

const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite';
console.log(`\nAPI benchmark: ${DURATION} s per figure, ${CONNECTIONS} connections, database ${database}\n`);

const shipped = await startServer({});
let bare: Result, authenticated: Result, signIns: Result, uncached: Result;
try {
  const user = await createSignedInUser(shipped.base);
  bare = await measure('bare JSON route', `${shipped.base}/api/bench/bare`);
  authenticated = await measure('authenticated GET /user/{id}', `${shipped.base}/api/connect/user/${user.sub}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  signIns = await measure('sign-ins (InitiateAuth, argon2id)', `${shipped.base}/idp`, {
    method: 'POST',
    connections: SIGN_IN_CONNECTIONS,
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify(user.signIn),
  });
} finally {
  await shipped.stop();
}
// Right after the sign-ins, with no server running: the machine's state is the nearest to theirs.
const hashLimit = await hashOnly();

const noCache = await startServer({ USER_CACHE_MS: '0' });
try {
  const user = await createSignedInUser(noCache.base);
  uncached = await measure('authenticated, user read every request', `${noCache.base}/api/connect/user/${user.sub}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
} finally {
  await noCache.stop();
}

const ratio = authenticated.rps / bare.rps;
console.log('');
console.log(
  `ratio authenticated/bare:            ${ratio.toFixed(2)} (target ≥ 0.50) ${ratio >= 0.5 ? 'met' : 'NOT met'}`,
);
console.log(`ratio without the user cache:        ${(uncached.rps / bare.rps).toFixed(2)}`);
console.log(
  `sign-ins/s:                          ${signIns.rps.toFixed(1)} (target ≥ 40) ${signIns.rps >= 40 ? 'met' : 'NOT met'}`,
);
const hashRatio = signIns.rps / hashLimit;
console.log(
  `sign-ins / argon2id alone:           ${hashRatio.toFixed(2)} (target ≥ 0.70) ${hashRatio >= 0.7 ? 'met' : 'NOT met'}`,
);
console.log(
  `Load average (1/5/15 min): ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} on ${os.cpus().length} CPUs`,
);
if (bare.failures + authenticated.failures + signIns.failures + uncached.failures) {
  console.log('warning: some requests failed during the run; the figures above are not clean');
  process.exitCode = 1;
}
