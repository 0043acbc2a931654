// `npm start`: builds the web app when its build is missing or older than its sources, then runs
// the server (TypeScript through tsx) with every embedded default unless configured otherwise.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distIndex = path.join(root, 'apps/web/dist/index.html');
const webSources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/shared/src'];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newestMtime(path.join(entry, name))));
}

const isBuildStale = !existsSync(distIndex) || statSync(distIndex).mtimeMs < Math.max(...webSources.map(newestMtime));
if (isBuildStale) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The token contracts (packages/contracts) are compiled by solc-js into a git-ignored cache; the
// server would compile them on first use, so a fresh or changed checkout compiles them here.
const contractsCache = path.join(root, 'packages/contracts/artifacts/contracts.json');
const contractSources = [
  'packages/contracts/contracts',
  'packages/contracts/src/compile.ts',
  'node_modules/solc/package.json',
  'node_modules/@openzeppelin/contracts/package.json',
];
if (!existsSync(contractsCache) || statSync(contractsCache).mtimeMs < Math.max(...contractSources.map(newestMtime))) {
  console.log('Compiling the token contracts…');
  const compile = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'packages/contracts/src/build.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (compile.status !== 0) process.exit(compile.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
