// `npm run bench:api` — not a test. In one run, against one server process on this machine:
//   1. requests/s of a bare JSON route (the baseline),
//   2. requests/s of an authenticated GET /api/connect/user/{id} (JWT verified, user loaded),
//   3. sign-ins/s (InitiateAuth USER_PASSWORD_AUTH, argon2id at OWASP parameters).
// Prints the figures and the ratio authenticated/bare (target ≥ 0.5) and sign-ins/s (target ≥ 40).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10); // autocannon's default
const root = path.resolve(import.meta.dirname, '..');

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/api-server.ts')], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: process.env,
});
const port = await new Promise<number>((resolve, reject) => {
  const lines = createInterface({ input: server.stdout! });
  lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}`;

async function idp(operation: string, body: Record<string, unknown>) {
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

type Result = { rps: number; p99: number; errors: number; non2xx: number };
async function measure(title: string, path: string, options: Partial<autocannon.Options> = {}): Promise<Result> {
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...options, url: `${base}${path}` });
  const summary = {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(
    `${title.padEnd(34)} ${summary.rps.toFixed(0).padStart(8)} req/s   p99 ${String(summary.p99).padStart(4)} ms   errors ${summary.errors}   non-2xx ${summary.non2xx}`,
  );
  return summary;
}

try {
  const config = (await (await fetch(`${base}/runtime-config.json`)).json()) as {
    identity: { userPoolClientId: string };
  };
  const ClientId = config.identity.userPoolClientId;
  const email = `bench-${Date.now()}@example.com`;
  const password = 'Bench-Passw0rd!';
  await idp('SignUp', {
    ClientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
  });
  const outbox = (await (await fetch(`${base}/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
    messages: { code: string | null }[];
  };
  const code = outbox.messages?.at(-1)?.code;
  if (!code) throw new Error('no sign-up code in the dev outbox');
  await idp('ConfirmSignUp', { ClientId, Username: email, ConfirmationCode: code });
  const signIn = { AuthFlow: 'USER_PASSWORD_AUTH', ClientId, AuthParameters: { USERNAME: email, PASSWORD: password } };
  const auth = (await idp('InitiateAuth', signIn)) as { AuthenticationResult: { AccessToken: string } };
  const token = auth.AuthenticationResult.AccessToken;
  const sub = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
  const first = await fetch(`${base}/api/connect/user/${sub}`, { headers: { authorization: `Bearer ${token}` } });
  if (!first.ok) throw new Error(`GET /api/connect/user/{id} answered ${first.status}`);

  console.log(`\nAPI benchmark: ${DURATION} s per figure, ${CONNECTIONS} connections, one server process, 2 cores\n`);
  const bare = await measure('bare JSON route', '/api/bench/bare');
  const authenticated = await measure('authenticated GET /user/{id}', `/api/connect/user/${sub}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const signIns = await measure('sign-ins (InitiateAuth)', '/idp', {
    method: 'POST',
    connections: 4,
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify(signIn),
  });

  const ratio = authenticated.rps / bare.rps;
  console.log('');
  console.log(`ratio authenticated/bare: ${ratio.toFixed(2)} (target ≥ 0.50) ${ratio >= 0.5 ? 'met' : 'NOT met'}`);
  console.log(
    `sign-ins/s:               ${signIns.rps.toFixed(1)} (target ≥ 40) ${signIns.rps >= 40 ? 'met' : 'NOT met'}`,
  );
  const failures =
    bare.errors + bare.non2xx + authenticated.errors + authenticated.non2xx + signIns.errors + signIns.non2xx;
  if (failures) console.log(`warning: ${failures} requests failed during the run; the figures above are not clean`);
} finally {
  server.kill('SIGTERM');
}
