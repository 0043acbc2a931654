// `npm test`: every stage with its time printed, stopping every stage at the first failure. Two
// lanes run side by side: the browser journeys, which mostly wait, and the CPU-bound stages one
// after another (lint and the type check side by side: ESLint is single-threaded, the machine has two
// cores). Stages are the package.json scripts of the same names, so each can still be run alone.
//
// `CI=true npm test` (.ci/run), or `node scripts/test.mjs ci`, is the CI's plan: the server suite once on PostgreSQL
// (DATABASE_URL, REDIS_URL) and, on PGlite, the database-layer selection; both record which
// repository functions ran, and a check fails when one runs on PostgreSQL only
// (scripts/repository-coverage.mjs).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const npmRun = (script) => ({ name: script, command: ['npm', 'run', script] });

/** Stages that run side by side (each lane is a stage or a `lane` of stages one after another). */
const side = (...lanes) => ({ side: lanes });
/** Stages one after another inside a lane. */
const lane = (...stages) => ({ lane: stages });
/**
 * A lane that yields the cores: the journeys' server and browser are slowed by every process that
 * runs beside them at the same priority, so the CPU-bound stages take only what the journeys leave
 * idle (`yieldCores`).
 */
const yielding = (item) =>
  item.side
    ? side(...item.side.map(yielding))
    : item.lane
      ? lane(...item.lane.map(yielding))
      : { ...item, isNice: true };

/**
 * The journeys: one build (the server, the SPA and the contracts, so that the journeys' server
 * builds nothing), then Playwright.
 */
const journeys = (env = {}) =>
  lane(npmRun('e2e:prepare'), { name: 'journeys', command: ['npx', 'playwright', 'test'], env });

function ciPlan() {
  const coverage = mkdtempSync(path.join(os.tmpdir(), 'connect-repository-coverage-'));
  const full = path.join(coverage, 'postgresql');
  const selection = path.join(coverage, 'pglite');
  const postgres = {
    DATABASE_URL: process.env.CI_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    REDIS_URL: process.env.CI_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  const pglite = { DATABASE_URL: '', REDIS_URL: '' };
  const repositoryCoverage = (args, env) => ({
    command: ['node', 'scripts/repository-coverage.mjs', ...args],
    env,
  });
  return [
    // The journeys run in a lane of their own from the start while the CPU-bound stages, one after
    // another and yielding to them, take what they leave of the two cores (the screenshots are for
    // people to look at and check nothing: e2e/support/a11y.ts).
    side(
      journeys({ E2E_SCREENSHOTS: 'off' }),
      yielding(
        lane(
          side(npmRun('lint'), npmRun('typecheck')),
          npmRun('test:unit'),
          { name: 'server on PostgreSQL', ...repositoryCoverage(['full', full], postgres) },
          { name: 'db layer on PGlite', ...repositoryCoverage(['selection', selection], pglite) },
        ),
      ),
    ),
    { name: 'repository coverage', ...repositoryCoverage(['check', full, selection], {}) },
  ];
}

const PLANS = {
  // The same lanes as CI's plan: the journeys beside the CPU-bound stages.
  default: () => [
    side(
      journeys(),
      yielding(lane(side(npmRun('lint'), npmRun('typecheck')), npmRun('test:unit'), npmRun('test:server'))),
    ),
  ],
  ci: ciPlan,
};

// CI=true (.ci/run sets it) chooses the CI's plan, so CI runs the README's own command, `npm test`.
const planName = process.argv[2] ?? (['true', '1'].includes(process.env.CI ?? '') ? 'ci' : 'default');
if (!PLANS[planName]) {
  console.error(`usage: node scripts/test.mjs [${Object.keys(PLANS).join('|')}]`);
  process.exit(2);
}

// The machine has two cores and CI is bound by their total, so each stage also prints the CPU time it
// and its children used (GNU time, where the machine has it). It misses processes that outlive the
// one that started them: for the journeys, the browser's renderers and GPU process, most of their
// cost (docs/decisions/foundations.md).
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpuFiles = mkdtempSync(path.join(os.tmpdir(), 'connect-test-cpu-'));

/** The CPU seconds (user + system) GNU time wrote for a stage, or null. */
function cpuSeconds(file) {
  if (!file || !existsSync(file)) return null;
  const [user, system] = readFileSync(file, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
  return Number.isFinite(user + system) ? Math.round(user + system) : null;
}

/**
 * Lowers a stage to the lowest priority against everything else on the machine. Each stage starts
 * a session of its own (it is detached), and with the kernel's autogroups (Debian's default) the
 * scheduler shares the cores fairly between sessions first and reads a process's nice value only
 * inside its session: `nice -n 19` alone changed nothing, and the journeys beside the unit tests
 * did 20 tests in 15 minutes instead of about 4. So the session's own nice value is set too;
 * children started later belong to the same session and inherit it.
 */
function yieldCores(pid) {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // No autogroups (another kernel, or turned off): `nice` is what the scheduler reads.
  }
}

/**
 * Runs one stage; alone it writes straight to the terminal, beside another each of its lines is
 * written as it comes, prefixed with the stage's name.
 */
function runStage({ name, command, env = {}, isNice = false }, isAlone) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n== ${name}${isAlone ? '' : ' (side by side: its lines start with its name)'}`);
    const cpuFile = GNU_TIME && path.join(cpuFiles, `${name.replace(/\W+/g, '-')}-${started}`);
    const timed = cpuFile ? [GNU_TIME, '-f', '%U %S', '-o', cpuFile, ...command] : command;
    const argv = isNice ? ['nice', '-n', '19', ...timed] : timed;
    const child = spawn(argv[0], argv.slice(1), {
      stdio: isAlone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      // Its own process group, so a failure elsewhere (or Ctrl-C) stops the stage with its children.
      detached: true,
    });
    if (isNice) yieldCores(child.pid);
    running.set(child, new Promise((resolve) => child.on('close', resolve)));
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) console.log(`[${name}] ${line}`);
      });
      stream.on('end', () => rest && console.log(`[${name}] ${rest}`));
    }
    child.on('close', (code) => {
      running.delete(child);
      const seconds = Math.round((Date.now() - started) / 1_000);
      const ok = code === 0;
      const cpu = cpuSeconds(cpuFile);
      console.log(`== ${name}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s${cpu === null ? '' : ` (CPU ${cpu} s)`}`);
      resolve({ name, seconds, cpu, ok, code });
    });
  });
}

const times = [];
/** The running stages' processes, each with the promise of its end. */
const running = new Map();
function summary() {
  for (const { name, seconds, cpu, ok } of times)
    console.log(
      `   ${ok ? 'ok    ' : 'FAILED'} ${name.padEnd(60)} ${String(seconds).padStart(5)} s${cpu == null ? '' : `  CPU ${cpu} s`}`,
    );
}
/** Sends a signal to every running stage's process group. */
function signalAll(signal) {
  for (const child of running.keys()) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Stops every running stage as Ctrl-C would, so each cleans up after itself (Playwright stops the
 * server and chains it started in a session of their own, which a SIGTERM to its group left
 * running), and kills what is still running 15 s later.
 */
async function stopAll() {
  signalAll('SIGINT');
  await Promise.race([Promise.all(running.values()), new Promise((resolve) => setTimeout(resolve, 15_000).unref())]);
  signalAll('SIGKILL');
}

let isFailing = false;
async function fail(code) {
  if (isFailing) return;
  isFailing = true;
  await stopAll();
  summary();
  process.exit(code ?? 1);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void fail(130));

const nameOf = (item) =>
  item.side ? item.side.map(nameOf).join(' + ') : item.lane ? item.lane.map(nameOf).join(' → ') : item.name;

/** Runs a stage, a lane or side-by-side lanes; the first failure stops every stage still running. */
async function run(item, isAlone) {
  // Once a stage has failed, nothing new starts.
  if (isFailing) return;
  if (item.lane) {
    for (const stage of item.lane) await run(stage, isAlone);
    return;
  }
  if (!item.side) {
    const result = await runStage(item, isAlone);
    times.push(result);
    if (!result.ok) await fail(result.code);
    return;
  }
  const started = Date.now();
  await Promise.all(item.side.map((each) => run(each, false)));
  if (isFailing) return;
  const seconds = Math.round((Date.now() - started) / 1_000);
  console.log(`== ${nameOf(item)} (side by side): ${seconds} s`);
  times.push({ name: `${nameOf(item)} (side by side)`, seconds, ok: true });
}

// CI_SIDE_BY_SIDE=0 runs every stage alone, one after another (to tell whether two stages slow each other).
const flatten = (item) => (item.side ? item.side.flatMap(flatten) : item.lane ? item.lane.flatMap(flatten) : [item]);
const steps = PLANS[planName]().flatMap((step) => (process.env.CI_SIDE_BY_SIDE === '0' ? flatten(step) : [step]));
for (const step of steps) await run(step, !step.side);
// On a failure, `fail` prints the summary and exits once every stage has stopped.
if (!isFailing) {
  console.log(`\n== npm test${planName === 'default' ? '' : ` (${planName})`}: every stage passed`);
  summary();
}
