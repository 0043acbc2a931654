// `npm run bench:gateway` — not a test. In one run, on this machine:
//   1. JSON-RPC eth_blockNumber requests/s straight to a local anvil chain,
//   2. the same through the platform API gateway (POST /api/gateway/{network}) with a valid
//      OAuth2 access token: token check, secret check, route and rate-limit look-ups, usage
//      counting, and the answer — from the gateway's shared-answer cache (the product's default:
//      eth_blockNumber at most 250 ms old, see services/gateway/cache.ts),
//   3. the same with GATEWAY_CACHE=off: every call forwarded to the chain,
//   4. for reference, a bare node:http server answering a fixed eth_blockNumber from memory (no
//      framework, no checks): what one Node.js process costs per request on this machine,
// all with autocannon at 20 connections. Prints, for both gateway figures, the throughput ratio
// gateway/direct (target ≥ 0.8) and the p99 latency the gateway adds (target < 5 ms). Each
// server runs in a child process (`tsx bench/gateway.ts server|floor`) on a fresh embedded
// database; the chain is its own anvil process.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/**
 * BENCH_ROUNDS=n measures the three servers n - 1 more times, one after another, and prints the
 * median of each round's ratio: on a loaded machine one 10 s figure swings more than a change.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const NETWORK_CODE = 'bench-chain';
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
const root = path.resolve(import.meta.dirname, '..');

type Ready = { port: number; clientId: string; clientSecret: string };

/** The child: the real app on a fresh database, one account with an application on the chain. */
async function runServer(rpcUrl: string) {
  const { openDatabase, seedReferenceData, networks, accountNetworks } = await import('@connect/db');
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { createPortalUser } = await import('../apps/server/src/repositories/portal-users.ts');
  const { ApplicationRepository } = await import('../apps/server/src/services/application-manager/repository.ts');
  const { ApplicationService } = await import('../apps/server/src/services/application-manager/service.ts');
  const { randomUUID } = await import('node:crypto');
  const { setAllowances } = await import('../apps/server/test/plans.ts');

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-bench-gateway-'));
  const config = loadConfig({
    ...process.env,
    // Not 'production': production requires PostgreSQL and SMTP (apps/server/src/production-checks.ts);
    // the sandboxes are off, as they are there.
    NODE_ENV: 'benchmark',
    CARD_SANDBOX: 'off',
    KYC_SANDBOX: 'off',
    SECRET_KEY: 'bench-secret-key',
    DATA_DIR: dataDir,
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

  // This measures the gateway, not the limiter's refusals (the network's own figure is no longer enforced).
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
  const user = await createPortalUser(dbh.db, app.deps.events, {
    id: randomUUID(),
    email: `bench-${Date.now()}@example.com`,
  });
  await dbh.db.insert(accountNetworks).values({ accountId: user.accountId, networkId: network!.id });
  // The gateway's limit is the plan's (per account and network): out of the way too.
  await setAllowances(dbh.db, user.accountId, { rateLimit: 10_000_000 });
  const service = new ApplicationService(new ApplicationRepository(dbh.db, app.deps.events), app.deps.box, config);
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
    rmSync(dataDir, { recursive: true, force: true }); // the bench leaves nothing behind
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
}

/** The reference: node:http answering every request with a fixed eth_blockNumber answer. */
function runFloor() {
  const answer = Buffer.from('{"jsonrpc":"2.0","id":1,"result":"0x0"}');
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      response.end(answer);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as AddressInfo;
    const ready: Ready = { port: address.port, clientId: '', clientSecret: '' };
    process.stdout.write(`${JSON.stringify(ready)}\n`);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

async function startServer(rpcUrl: string, mode: 'server' | 'floor' = 'server', env: Record<string, string> = {}) {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server child there (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(
    process.execPath,
    [...profile, '--import', 'tsx', path.join(root, 'bench/gateway.ts'), mode, rpcUrl],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const ready = await new Promise<Ready>((resolve, reject) => {
    // The server's own warnings (pino, JSON lines) may come first: the ready line is the one with a port.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const parsed = JSON.parse(line) as Partial<Ready>;
      if (parsed.port !== undefined) resolve(parsed as Ready);
    });
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

/** CPU time (user and system, ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): { user: number; system: number } | null {
  const file = `/proc/${pid}/stat`;
  if (!pid || !existsSync(file)) return null;
  const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 }; // clock ticks of 10 ms
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
      `${title.padEnd(40)} ${figures.rps.toFixed(0).padStart(7)} req/s   p50 ${String(figures.p50).padStart(3)} ms   p99 ${String(figures.p99).padStart(3)} ms${failures ? `   FAILED ${failures}` : ''}`,
    );
  }
  return figures;
}

type Server = Awaited<ReturnType<typeof startServer>>;

async function accessToken(server: Server): Promise<string> {
  const response = await fetch(`${server.base}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  if (!response.ok) throw new Error(`POST /oauth2/token answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Checks the path end to end; returns the x-gateway-cache header of the last call: a few calls,
 * so that on a loaded machine a call comes within the shared answer's 250 ms of the one before.
 */
async function check(url: string, headers: Record<string, string>): Promise<string | null> {
  let cache: string | null = null;
  for (let i = 0; i < 5 && cache !== 'hit'; i++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: BODY,
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    cache = response.headers.get('x-gateway-cache');
  }
  return cache;
}

/** The anvil process this bench started (a child named anvil), from /proc; undefined elsewhere. */
function anvilPid(): number | undefined {
  if (!existsSync('/proc')) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'anvil' && ppid === process.pid) return Number(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return undefined;
}

type Cpu = { server: number; anvil: number; client: number };

/**
 * Measures url and the CPU time used meanwhile, in µs per call: by the server under test (the
 * gateway, or anvil itself for the direct figure), by anvil, and by this process (autocannon).
 */
async function measureWithCpu(
  title: string,
  url: string,
  headers: Record<string, string>,
  pids: { server?: number; anvil?: number },
) {
  const total = (cpu: { user: number; system: number } | null) => (cpu ? cpu.user + cpu.system : NaN);
  const before = { server: total(cpuMs(pids.server)), anvil: total(cpuMs(pids.anvil)), client: process.cpuUsage() };
  const figures = await measure(title, url, headers);
  const client = process.cpuUsage(before.client);
  const per = (ms: number) => (figures.requests ? (ms * 1000) / figures.requests : NaN);
  const cpu: Cpu = {
    server: per(total(cpuMs(pids.server)) - before.server),
    anvil: per(total(cpuMs(pids.anvil)) - before.anvil),
    client: per((client.user + client.system) / 1000),
  };
  return { ...figures, cpu };
}

async function main() {
  const { startDevChain } = await import('@connect/devchain');
  const chain = await startDevChain({ chainId: 31_337 });
  const servers: Server[] = [];
  try {
    // Both gateways (cache on, the default, and off) and the reference start before anything is measured.
    const cached = await startServer(chain.rpcUrl, 'server', { GATEWAY_CACHE: 'on' });
    servers.push(cached);
    const uncached = await startServer(chain.rpcUrl, 'server', { GATEWAY_CACHE: 'off' });
    servers.push(uncached);
    const floor = await startServer(chain.rpcUrl, 'floor');
    servers.push(floor);
    const gateways = await Promise.all(
      [cached, uncached].map(async (server) => ({
        server,
        url: `${server.base}/api/gateway/${NETWORK_CODE}`,
        auth: { authorization: `Bearer ${await accessToken(server)}` },
      })),
    );
    const hit = await check(gateways[0]!.url, gateways[0]!.auth);
    if (hit !== 'hit') throw new Error(`the cached gateway did not answer from its cache (x-gateway-cache: ${hit})`);
    if (await check(gateways[1]!.url, gateways[1]!.auth)) throw new Error('GATEWAY_CACHE=off answered from a cache');
    await check(`${floor.base}/`, {});

    // Warm everything up (JIT, kept-alive sockets, caches).
    await measure('', chain.rpcUrl, {}, 2);
    for (const gateway of gateways) await measure('', gateway.url, gateway.auth, 2);
    await measure('', `${floor.base}/`, {}, 2);

    const database = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite';
    console.log(
      `\nGateway benchmark: eth_blockNumber, ${DURATION} s per figure, ${CONNECTIONS} connections, database ${database}\n`,
    );
    const anvil = anvilPid();
    const direct = await measureWithCpu('straight to the chain (anvil)', chain.rpcUrl, {}, { anvil });
    const on = await measureWithCpu('gateway, cache on (default)', gateways[0]!.url, gateways[0]!.auth, {
      server: cached.pid,
      anvil,
    });
    const off = await measureWithCpu('gateway, GATEWAY_CACHE=off', gateways[1]!.url, gateways[1]!.auth, {
      server: uncached.pid,
      anvil,
    });
    const bare = await measureWithCpu(
      'reference: bare node:http, fixed answer',
      `${floor.base}/`,
      {},
      {
        server: floor.pid,
        anvil,
      },
    );

    const runs = [on, off, bare];
    const column = (text: string) => text.padStart(14);
    const row = (label: string, values: string[]) => console.log(`${label.padEnd(36)}${values.map(column).join('')}`);
    const µs = (n: number) => (Number.isFinite(n) ? `${n.toFixed(0)} µs` : '–');
    console.log('');
    row('', ['direct', 'cache on', 'cache off', 'bare node']);
    row('ratio to direct (target ≥ 0.8)', [
      '',
      ...runs.map((r) => `${(r.rps / direct.rps).toFixed(2)} ${r.rps / direct.rps >= 0.8 ? 'met' : 'NOT'}`),
    ]);
    row('p99 added (target < 5 ms)', [
      '',
      ...runs.map((r) => `${r.p99 - direct.p99} ms ${r.p99 - direct.p99 < 5 ? 'met' : 'NOT'}`),
    ]);
    row('p50 added', ['', ...runs.map((r) => `${r.p50 - direct.p50} ms`)]);
    console.log('CPU time per call (all cores):');
    row('  server under test (Node.js)', ['', ...runs.map((r) => µs(r.cpu.server))]);
    row(
      '  anvil',
      [direct, ...runs].map((r) => µs(r.cpu.anvil)),
    );
    row(
      '  load generator (autocannon)',
      [direct, ...runs].map((r) => µs(r.cpu.client)),
    );
    row(
      '  total',
      [direct, ...runs].map((r) => µs((Number.isFinite(r.cpu.server) ? r.cpu.server : 0) + r.cpu.anvil + r.cpu.client)),
    );
    // Issue 30's measure: the gateway's own CPU per call against the bare node:http server's.
    const goals = [1.5, 3];
    row('server CPU / bare node:http (target)', [
      '',
      ...[on, off].map((r, i) => {
        const ratio = r.cpu.server / bare.cpu.server;
        if (!Number.isFinite(ratio)) return '–';
        return `${ratio.toFixed(2)}× ${ratio <= goals[i]! ? 'met' : 'NOT'}`;
      }),
      '',
    ]);
    row('', ['', ...goals.map((goal) => `(≤ ${goal}×)`), '']);
    if (ROUNDS > 1) {
      const ratios: [number, number][] = [[on.cpu.server / bare.cpu.server, off.cpu.server / bare.cpu.server]];
      const cpu = (r: { cpu: Cpu }) => µs(r.cpu.server);
      for (let round = 2; round <= ROUNDS; round++) {
        const again = [];
        for (const [server, url, auth] of [
          [cached, gateways[0]!.url, gateways[0]!.auth],
          [uncached, gateways[1]!.url, gateways[1]!.auth],
          [floor, `${floor.base}/`, {}],
        ] as const)
          again.push(await measureWithCpu('', url, auth, { server: server.pid, anvil }));
        const [a, b, c] = again as [typeof on, typeof on, typeof on];
        ratios.push([a.cpu.server / c.cpu.server, b.cpu.server / c.cpu.server]);
        row(`  round ${round}: server CPU, ratios`, [
          '',
          `${cpu(a)} ${ratios.at(-1)![0].toFixed(2)}×`,
          `${cpu(b)} ${ratios.at(-1)![1].toFixed(2)}×`,
          cpu(c),
        ]);
      }
      const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
      row(`median of ${ROUNDS} rounds' ratios`, [
        '',
        ...goals.map((goal, i) => {
          const ratio = median(ratios.map((r) => r[i]!));
          return `${ratio.toFixed(2)}× ${ratio <= goal ? 'met' : 'NOT'}`;
        }),
        '',
      ]);
    }
    const load = os.loadavg().map((n) => n.toFixed(1));
    console.log(`\nload average (1/5/15 min) ${load.join(' / ')} on ${os.cpus().length} cores`);
    if (direct.failures || on.failures || off.failures || bare.failures) process.exitCode = 1;
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await chain.stop();
  }
}

if (process.argv[2] === 'server') await runServer(process.argv[3]!);
else if (process.argv[2] === 'floor') runFloor();
else await main();
