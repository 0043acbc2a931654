// `npm test`: the stages one after another, each one's time printed, stopping at the first failure.
// Lint and the type check run side by side (each is single-threaded; the machine has two cores).
// Stages are the package.json scripts of the same names, so each can still be run alone.
//
// `CI=true npm test` (.ci/run), or `node scripts/test.mjs ci`, is the CI's plan: the server suite once on PostgreSQL
// (DATABASE_URL, REDIS_URL) and, on PGlite, the database-layer selection; both record which
// repository functions ran, and a check fails when one runs on PostgreSQL only
// (scripts/repository-coverage.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const npmRun = (script) => ({ name: script, command: ['npm', 'run', script] });

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
    [npmRun('lint'), npmRun('typecheck')],
    npmRun('test:unit'),
    { name: 'server on PostgreSQL', ...repositoryCoverage(['full', full], postgres) },
    // The journeys leave most of a core idle (0.3 of a core measured), so the PGlite selection runs
    // beside them; the screenshots are for people to look at and check nothing (e2e/support/a11y.ts).
    [
      { name: 'db layer on PGlite', ...repositoryCoverage(['selection', selection], pglite) },
      { ...npmRun('test:e2e'), env: { E2E_SCREENSHOTS: 'off' } },
    ],
    { name: 'repository coverage', ...repositoryCoverage(['check', full, selection], {}) },
  ];
}

const PLANS = {
  default: () => [
    [npmRun('lint'), npmRun('typecheck')],
    npmRun('test:unit'),
    npmRun('test:server'),
    npmRun('test:e2e'),
  ],
  ci: ciPlan,
};

// CI=true (.ci/run sets it) chooses the CI's plan, so CI runs the README's own command, `npm test`.
const planName = process.argv[2] ?? (['true', '1'].includes(process.env.CI ?? '') ? 'ci' : 'default');
if (!PLANS[planName]) {
  console.error(`usage: node scripts/test.mjs [${Object.keys(PLANS).join('|')}]`);
  process.exit(2);
}

/**
 * Runs one stage; alone it writes straight to the terminal, beside another each of its lines is
 * written as it comes, prefixed with the stage's name.
 */
function runStage({ name, command, env = {} }, isAlone) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n== ${name}${isAlone ? '' : ' (side by side: its lines start with its name)'}`);
    const child = spawn(command[0], command.slice(1), {
      stdio: isAlone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
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
      const seconds = Math.round((Date.now() - started) / 1_000);
      const ok = code === 0;
      console.log(`== ${name}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s`);
      resolve({ name, seconds, ok, code });
    });
  });
}

const times = [];
function summary() {
  for (const { name, seconds, ok } of times)
    console.log(`   ${ok ? 'ok    ' : 'FAILED'} ${name.padEnd(32)} ${seconds} s`);
}

// CI_SIDE_BY_SIDE=0 runs every stage alone, one after another (to tell whether two stages slow each other).
const steps = PLANS[planName]().flatMap((step) =>
  Array.isArray(step) && process.env.CI_SIDE_BY_SIDE === '0' ? step.map((stage) => [stage]) : [step],
);
for (const step of steps) {
  const group = Array.isArray(step) ? step : [step];
  const started = Date.now();
  const results = await Promise.all(group.map((stage) => runStage(stage, group.length === 1)));
  times.push(...results);
  if (group.length > 1) {
    const name = `${group.map((stage) => stage.name).join(' + ')} (side by side)`;
    const seconds = Math.round((Date.now() - started) / 1_000);
    console.log(`== ${name}: ${seconds} s`);
    times.push({ name, seconds, ok: results.every(({ ok }) => ok) });
  }
  const failed = results.find(({ ok }) => !ok);
  if (failed) {
    summary();
    process.exit(failed.code ?? 1);
  }
}
console.log(`\n== npm test${planName === 'default' ? '' : ` (${planName})`}: every stage passed`);
summary();
