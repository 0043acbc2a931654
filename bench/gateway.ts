// `npm run bench:gateway` — not a test. In one run, on this machine:
//   1. JSON-RPC eth_blockNumber requests/s straight to a local anvil chain,
//   2. the same through the platform API gateway (POST /api/gateway/{network}) with a valid
//      OAuth2 access token: token check, secret check, route and rate-limit look-ups, usage
//      counting and the forward to the chain,
// both with autocannon at 20 connections. Prints the throughput ratio gateway/direct (target
// ≥ 0.8) and the p99 latency the gateway adds (target < 5 ms). The server runs in a child
// process (`tsx bench/gateway.ts server`) on a fresh embedded database; the chain is its own
// anvil process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const NETWORK_CODE = 'bench-chain';
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
const root = path.resolve(import.meta.dirname, '..');

type Ready = { port: number; clientId: string; clientSecret: string };

/** The child: the real app on a fresh database, one account with an application on the chain. */
async function runServer(rpcUrl: string) {
  const { openDatabase, seedReferenceData, networks, accountNetworks } = await import('@connect/db');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { createPortalUser } = await import('../apps/server/src/lib/portal-users.ts');
  const { ApplicationRepository } = await import('../apps/server/src/services/application-manager/repository.ts');
  const { ApplicationService } = await import('../apps/server/src/services/application-manager/service.ts');
  const { randomUUID } = await import('node:crypto');

  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    SECRET_KEY: 'bench-secret-key',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'connect-bench-gateway-')),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEVCHAINS: '0',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  });
  const dbh = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {});
  await dbh.migrate();
  await seedReferenceData(dbh.db);
  const app = await buildApp({ config, db: dbh, logger: { level: 'warn' } });
  await app.listen({ port: 0, host: '127.0.0.1' });

  // The bench network's limit is out of the way: this measures the gateway, not the limiter's refusals.
  const [network] = await dbh.db
    .insert(networks)
    .values({
      code: NETWORK_CODE,
      name: 'Bench chain',
      networkType: 'testnet',
      technology: 'Ethereum',
      chainId: 31_337,
      rpcUrl,
      rateLimit: 10_000_000,
      isLocal: true,
    })
    .returning();
  const user = await createPortalUser(dbh.db, { id: randomUUID(), email: `bench-${Date.now()}@example.com` });
  await dbh.db.insert(accountNetworks).values({ accountId: user.accountId, networkId: network!.id });
  const service = new ApplicationService(new ApplicationRepository(dbh.db), app.deps.box, config);
  const created = await service.create(user, {
    name: 'Bench application',
    callbackUrl: 'https://example.com/callback',
    applicationType: 'testnet',
    networkIds: [network!.id],
    testnetSigning: false,
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const ready: Ready = { port, clientId: created.clientId, clientSecret: created.clientSecret };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  const stop = async () => {
    await app.close();
    await dbh.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
}

async function startServer(rpcUrl: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/gateway.ts'), 'server', rpcUrl], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line) as Ready));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...ready,
    pid: child.pid,
    base: `http://127.0.0.1:${ready.port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

type Result = { rps: number; p50: number; p99: number; failures: number; requests: number };

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  const file = `/proc/${pid}/stat`;
  if (!pid || !existsSync(file)) return null;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

async function measure(title: string, url: string, headers: Record<string, string>, seconds = DURATION) {
  const result = await autocannon({
    url,
    method: 'POST',
    body: BODY,
    headers: { 'content-type': 'application/json', ...headers },
    connections: CONNECTIONS,
    duration: seconds,
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  const figures: Result = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures,
    requests: result.requests.total,
  };
  if (title) {
    console.log(
      `${title.padEnd(36)} ${figures.rps.toFixed(0).padStart(7)} req/s   p50 ${String(figures.p50).padStart(3)} ms   p99 ${String(figures.p99).padStart(3)} ms${failures ? `   FAILED ${failures}` : ''}`,
    );
  }
  return figures;
}

async function main() {
  const { startDevChain } = await import('@connect/devchain');
  const chain = await startDevChain({ chainId: 31_337 });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer(chain.rpcUrl);
    const tokenResponse = await fetch(`${server.base}/oauth2/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    if (!tokenResponse.ok) throw new Error(`POST /oauth2/token answered ${tokenResponse.status}`);
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const gatewayUrl = `${server.base}/api/gateway/${NETWORK_CODE}`;
    const auth = { authorization: `Bearer ${token}` };

    // Check the path end to end, then warm both up (JIT, kept-alive sockets, caches).
    const check = await fetch(gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: BODY,
    });
    if (!check.ok) throw new Error(`the gateway answered ${check.status}: ${await check.text()}`);
    await measure('', chain.rpcUrl, {}, 2);
    await measure('', gatewayUrl, auth, 2);

    const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite';
    console.log(
      `\nGateway benchmark: eth_blockNumber, ${DURATION} s per figure, ${CONNECTIONS} connections, database ${database}\n`,
    );
    const direct = await measure('straight to the chain (anvil)', chain.rpcUrl, {});
    const cpuBefore = cpuMs(server.pid);
    const gateway = await measure('through the gateway (Bearer token)', gatewayUrl, auth);
    const cpuAfter = cpuMs(server.pid);

    const ratio = gateway.rps / direct.rps;
    const addedP99 = gateway.p99 - direct.p99;
    const addedP50 = gateway.p50 - direct.p50;
    console.log('');
    console.log(
      `throughput ratio gateway / direct   ${ratio.toFixed(2)}   (target ≥ 0.8) ${ratio >= 0.8 ? 'met' : 'NOT MET'}`,
    );
    console.log(
      `p99 added latency                   ${addedP99} ms   (target < 5 ms) ${addedP99 < 5 ? 'met' : 'NOT MET'}   (p50 added ${addedP50} ms)`,
    );
    if (cpuBefore !== null && cpuAfter !== null && gateway.requests) {
      const perCall = ((cpuAfter - cpuBefore) * 1000) / gateway.requests;
      console.log(`gateway server CPU per call           ${perCall.toFixed(0)} µs (one Node.js thread)`);
    }
    const load = os.loadavg().map((n) => n.toFixed(1));
    console.log(`load average (1/5/15 min)           ${load.join(' / ')} on ${os.cpus().length} cores`);
    if (direct.failures || gateway.failures) process.exitCode = 1;
  } finally {
    await server?.stop();
    await chain.stop();
  }
}

if (process.argv[2] === 'server') await runServer(process.argv[3]!);
else await main();
