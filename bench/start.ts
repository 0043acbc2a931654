// `npm run bench:start` — not a test. On a fresh clone of this repository (HEAD, or
// START_BENCH_REF), as a person would run it:
//   1. the first start: `npm start` on a checkout with no builds and no data directory, until
//      GET /api/health answers 200 — with each step's time as the start script prints it;
//   2. three restarts: the server stopped (SIGTERM) and `npm start` run again on the same data
//      directory, until healthy.
// Each against its goal (first start ≤ 15 s, restart ≤ 1.5 s). node_modules is not installed again:
// the clone gets a node_modules of its own whose entries link to this checkout's (the workspace
// links point into the clone, so the clone's sources are what runs). Every temporary directory is
// removed at the end.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const REF = process.env.START_BENCH_REF ?? 'HEAD';
const RESTARTS = 3;
const FIRST_START_GOAL_S = 15;
const RESTART_GOAL_S = 1.5;
const randomPort = (from: number) => from + Math.floor(Math.random() * 10_000);

/** A node_modules for `clone` whose entries link to `from`'s, workspace packages to the clone's own. */
function mirrorNodeModules(from: string, to: string, clone: string) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.vite')) continue; // caches, written per checkout
    if (entry.name === '@connect') {
      mkdirSync(path.join(to, '@connect'));
      for (const link of readdirSync(path.join(from, '@connect'))) {
        const target = path.resolve(path.join(from, '@connect'), readlinkSync(path.join(from, '@connect', link)));
        symlinkSync(path.join(clone, path.relative(ROOT, target)), path.join(to, '@connect', link));
      }
      continue;
    }
    symlinkSync(path.join(from, entry.name), path.join(to, entry.name));
  }
}

type Run = { seconds: number; steps: string[] };

/** `npm start` in the clone until /api/health answers; the lines it printed that carry a time. */
async function startUntilHealthy(clone: string, env: NodeJS.ProcessEnv): Promise<{ run: Run; server: ChildProcess }> {
  const started = performance.now();
  // Its own process group, so stopping it stops npm, the start script and the server alike.
  const server = spawn('npm', ['start'], { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const steps: string[] = [];
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    const lines = output.split('\n');
    output = lines.pop()!;
    // The start script's step lines end with their time, e.g. "Built the web app (7.4 s)".
    steps.push(...lines.filter((line) => /\(\d+(\.\d+)? s\)$/.test(line)).map((line) => line.trim()));
  };
  server.stdout!.on('data', collect);
  server.stderr!.on('data', collect);
  let exited = false;
  server.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`npm start exited before it was healthy:\n${output}`);
    const healthy = await fetch(`http://127.0.0.1:${env.PORT}/api/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (healthy) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { run: { seconds: (performance.now() - started) / 1000, steps }, server };
}

async function stop(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  process.kill(-server.pid!, 'SIGTERM');
  await exited;
  // The server stops its local chains as it exits; wait for the whole group to be gone.
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(-server.pid!, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const verdict = (seconds: number, goal: number) =>
  `${seconds.toFixed(2)} s (goal ≤ ${goal} s: ${seconds <= goal ? 'met' : 'missed'})`;

const temp = mkdtempSync(path.join(os.tmpdir(), 'connect-bench-start-'));
let server: ChildProcess | undefined;
// Stopped early (Ctrl-C, a timeout): the server and its chains stop, and the clone goes, all the same.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    setTimeout(() => {
      rmSync(temp, { recursive: true, force: true });
      process.exit(1);
    }, 5_000);
  });
}
try {
  const clone = path.join(temp, 'repo');
  const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'inherit' });
  if (cloned.status !== 0) throw new Error('git clone failed');
  if (REF !== 'HEAD') {
    const sha = spawnSync('git', ['rev-parse', REF], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    spawnSync('git', ['checkout', '--quiet', sha], { cwd: clone, stdio: 'inherit' });
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone, encoding: 'utf8' }).stdout.trim();
  mirrorNodeModules(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), clone);
  mirrorNodeModules(path.join(ROOT, 'apps/web/node_modules'), path.join(clone, 'apps/web/node_modules'), clone);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(randomPort(20_000)),
    DEVCHAIN_PORTS: `${randomPort(40_000)},${randomPort(50_000)}`,
    LOG_LEVEL: 'warn',
  };
  delete env.NODE_ENV; // npm start's own default (development), as a person runs it
  delete env.DATA_DIR;
  delete env.DATABASE_URL;

  console.log(`bench:start on a fresh clone of ${commit} (load ${load()}, ${os.cpus().length} cores)`);
  const first = await startUntilHealthy(clone, env);
  server = first.server;
  console.log(`first start: ${verdict(first.run.seconds, FIRST_START_GOAL_S)}`);
  for (const step of first.run.steps) console.log(`  ${step}`);
  await stop(server);
  const restarts: number[] = [];
  for (let i = 0; i < RESTARTS; i++) {
    const restart = await startUntilHealthy(clone, env);
    server = restart.server;
    restarts.push(restart.run.seconds);
    console.log(`restart ${i + 1}: ${verdict(restart.run.seconds, RESTART_GOAL_S)} (load ${load()})`);
    for (const step of restart.run.steps) console.log(`  ${step}`);
    await stop(server);
  }
  const median = [...restarts].sort((a, b) => a - b)[Math.floor(restarts.length / 2)]!;
  console.log(`restart median: ${verdict(median, RESTART_GOAL_S)}`);
} finally {
  if (server) await stop(server);
  rmSync(temp, { recursive: true, force: true });
}
