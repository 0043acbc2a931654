// `npm start`: builds what is missing or out of date — the server (compiled to JavaScript), the web
// app and the token contracts — then runs the server in this process with every embedded default
// unless configured otherwise. A build is reused while its sources are unchanged (content hashes:
// build-cache.mjs), so a restart builds nothing. On a first start the slow steps run side by side
// (two cores): the web build (and the contracts' compile, when their committed artifacts are stale)
// in child processes, and the new embedded database's initdb on its own thread (issue 30: 30.7–36.6 s
// one after another).
//
// `--build-only` builds all three and exits (the journeys build first, so that their server finds
// everything built); `--server-only` builds only the server and runs it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractsBuild, isBuildCurrent, recordBuild, sourcesHash } from './build-cache.mjs';
import { ensureServerBuild, loadServerBuild } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverOnly = process.argv.includes('--server-only');
const buildOnly = process.argv.includes('--build-only');
// Before anything of the server loads: its configuration reads NODE_ENV.
process.env.NODE_ENV ??= 'development';

const seconds = (started) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Runs `args` with Node, its output kept and shown only if it fails. */
function runNode(args, cwd = root, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed:\n${output}`))));
  });
}

/** A build step that runs unless the hash of `sources` is the one recorded at its last build. */
async function step(name, { sources, output, stamp, salt = '', build }) {
  const hash = sourcesHash(root, sources, salt);
  if (isBuildCurrent(path.join(root, output), path.join(root, stamp), hash)) return false;
  const started = performance.now();
  await build();
  recordBuild(path.join(root, stamp), hash);
  console.log(`${name} (${seconds(started)})`);
  return true;
}

const webApp = () =>
  step('Built the web app', {
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'packages/shared/src',
    ],
    output: 'apps/web/dist/index.html',
    stamp: 'apps/web/dist/.sources-hash',
    // NODE_ENV is the server's (development unless set): the bundle is always React's production
    // build (under NODE_ENV=development Vite bundled React's development build, 488 kB against 295 kB).
    build: () =>
      runNode([path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], path.join(root, 'apps/web'), {
        NODE_ENV: 'production',
      }),
  });

// The token contracts (packages/contracts), compiled by solc-js when their committed artifacts are
// not the sources' (build-cache.mjs); the server would compile them on first use otherwise.
const contracts = () =>
  step('Compiled the token contracts', {
    ...contractsBuild(root),
    build: () => runNode(['--import', 'tsx', path.join(root, 'packages/contracts/src/build.ts')]),
  });

let server;
let bundle;
try {
  const started = performance.now();
  const building = serverOnly ? [] : [webApp(), contracts()];
  for (const build of building) build.catch(() => undefined); // reported below, once the server is built
  server = await ensureServerBuild(root);
  if (server.built) console.log(`Built the server (${seconds(started)})`);
  if (buildOnly) {
    await Promise.all(building);
    process.exit(0);
  }
  bundle = loadServerBuild(server.dir);
  if (building.length) {
    // While anything builds, a new embedded database is created beside it (PGlite's initdb).
    const databaseStarted = performance.now();
    const database = bundle.exports.prepareNewEmbeddedDatabase().then((result) => {
      if (result === 'created') console.log(`Created the embedded database (${seconds(databaseStarted)})`);
    });
    await Promise.all([...building, database]);
  }
  if (performance.now() - started > 1000) console.log(`Ready to start (${seconds(started)})`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
await bundle.exports.startServer();
bundle.saveCodeCache();
