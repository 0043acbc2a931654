// `npm run typecheck`: every project's type check with TypeScript 7, the compiler ported to Go
// (`typescript7`, an alias of typescript@7). It reports the same errors as TypeScript 5.9 on this
// code in about half the CPU (server 26 s against 48 s, web 22 s against 44 s), and CI is bound by
// the machine's two cores (docs/decisions/foundations.md). TypeScript 5.9 (`typescript`) stays for
// what uses the compiler's API: typescript-eslint, Vite, tsx and the OpenAPI client test.
// Both packages name their command `tsc`, so the one in node_modules/.bin is whichever npm linked
// last; this script runs TypeScript 7's by its path.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const PROJECTS = [
  'packages/shared',
  'packages/db',
  'packages/devchain',
  'packages/contracts',
  'apps/server',
  'apps/web',
  'e2e',
];

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript7/package.json')), 'bin', 'tsc');
// One project alone: `npm run typecheck -- apps/web`.
const chosen = process.argv.length > 2 ? process.argv.slice(2) : PROJECTS;
let failed = 0;
for (const project of chosen) {
  const started = Date.now();
  const { status } = spawnSync(process.execPath, [tsc, '-p', path.join(root, project, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  console.log(`${status === 0 ? 'ok    ' : 'FAILED'} ${project} (${((Date.now() - started) / 1_000).toFixed(1)} s)`);
  if (status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
