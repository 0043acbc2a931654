// The server compiled to JavaScript for `npm start` (issue 30): apps/server/src, the workspace
// packages and most npm dependencies bundled by esbuild into one CommonJS file, server.cjs. Node
// loads it without tsx compiling the TypeScript graph at run time (3.3 s of a restart); building
// takes ~3 s. It is loaded through a V8 code cache (loadServerBuild), and the parts a start does
// not need at once (main.ts behind the database's open, every dynamically imported module) are
// evaluated when first used.
//
// A build lives in apps/server/dist/<hash of its sources>/ (git-ignored): it is current exactly
// while that directory exists, servers running from an older build keep their files, and two
// starts building at once each write their own directory and keep the first one renamed in place.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import vm from 'node:vm';
import { sourcesHash } from './build-cache.mjs';

/** What the build is made of: a change to any of these files makes another build. */
export const SERVER_SOURCES = [
  'apps/server/src',
  'packages/shared/src',
  'packages/db/src',
  'packages/devchain/src',
  'packages/contracts/src',
  'scripts/build-server.mjs',
  'scripts/build-cache.mjs',
];
const OUT_DIR = 'apps/server/dist';
/** Older builds are removed once this old (a server started from one has loaded it by then). */
const KEEP_OLD_BUILDS_MS = 10 * 60_000;

/** The build's directory for the current sources (whether it exists or not), relative to `root`. */
export function serverBuildDir(root) {
  const esbuild = readFileSync(path.join(root, 'node_modules/esbuild/package.json'), 'utf8');
  return path.join(OUT_DIR, sourcesHash(root, SERVER_SOURCES, `esbuild ${JSON.parse(esbuild).version}`).slice(0, 16));
}

/** The bundle's own file URL, set by its banner: CommonJS has no `import.meta`. */
const BUNDLE_URL = '__bundleUrl';

/**
 * Files keep finding what they load by path at run time (the database thread's pglite-worker.js,
 * the migrations folder, the contracts' solc and sources, the web build): each `import.meta.url` /
 * `import.meta.dirname` of a bundled source file is rewritten to that source file's own location,
 * relative to the build, so the build works wherever the checkout lives.
 */
function sourceLocationPlugin(outDir) {
  return {
    name: 'source-location',
    setup(build) {
      build.onLoad({ filter: /\.(ts|js|mjs)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const contents = await readFile(args.path, 'utf8');
        if (!contents.includes('import.meta.')) return undefined;
        const fromBuild = path.relative(outDir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(fromBuild)}, ${BUNDLE_URL}).href`;
        const dirname = `decodeURIComponent(new URL(".", ${url}).pathname).replace(/\\/$/, "")`;
        return {
          contents: contents.replaceAll('import.meta.url', url).replaceAll('import.meta.dirname', dirname),
          loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        };
      });
    },
  };
}

/**
 * The npm dependencies are bundled too: Node then resolves and reads one file instead of ~2,000,
 * and loading the server took 1.4 s of CPU instead of 2.5 s (measured under load; issue 30).
 * These stay imports, loaded from node_modules at run time: packages that read their own files
 * (wasm, fonts, assets, a worker script, their package.json) or are native, optional or loaded
 * only when configured.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pdfkit',
  'pino',
  'thread-stream',
  'solc',
  'pg-native',
  'ioredis',
  'nodemailer',
];
const externalDependencies = {
  name: 'external-dependencies',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('node:') || EXTERNAL.some((name) => args.path === name || args.path.startsWith(`${name}/`))
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

const BUNDLE = 'server.cjs';

/**
 * The server's build for the current sources, built now unless it exists: its directory holds
 * server.cjs, whose exports are entry.ts's (startServer, prepareNewEmbeddedDatabase).
 */
export async function ensureServerBuild(root) {
  const dir = path.join(root, serverBuildDir(root));
  if (existsSync(path.join(dir, BUNDLE))) return { dir, built: false };
  const esbuild = await import('esbuild');
  // Written beside its final place (same depth: the rewritten locations hold), then renamed.
  const temp = `${dir}.tmp-${process.pid}`;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'apps/server/src/entry.ts')],
    outfile: path.join(temp, BUNDLE),
    bundle: true,
    platform: 'node',
    // CommonJS, so that it can be compiled from a V8 code cache (loadServerBuild); its dynamic
    // imports become lazily evaluated parts of the one file (external ones: require).
    format: 'cjs',
    supported: { 'dynamic-import': false },
    target: 'node20',
    plugins: [externalDependencies, sourceLocationPlugin(temp)],
    // The bundled packages' own `import.meta.url` (ours are rewritten by sourceLocationPlugin).
    define: { 'import.meta.url': BUNDLE_URL },
    banner: { js: `const ${BUNDLE_URL} = require("node:url").pathToFileURL(__filename).href;` },
    keepNames: true, // class and function names as written (error names, logs)
    logLevel: 'warning',
    legalComments: 'none',
  });
  try {
    renameSync(temp, dir);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true }); // another start built the same sources first
    if (!existsSync(path.join(dir, BUNDLE))) throw error;
  }
  removeOldBuilds(root, path.basename(dir));
  return { dir, built: true };
}

function removeOldBuilds(root, current) {
  const out = path.join(root, OUT_DIR);
  for (const name of readdirSync(out)) {
    const full = path.join(out, name);
    if (name !== current && Date.now() - statSync(full).mtimeMs > KEEP_OLD_BUILDS_MS) {
      rmSync(full, { recursive: true, force: true });
    }
  }
}

/**
 * Loads a build's server.cjs and answers its exports, compiled from the V8 code cache beside it
 * (server.cjs.cache) when there is one: V8 then skips parsing and compiling what the cache holds.
 * `saveCodeCache()` writes the cache once the server listens, so that it also holds every function
 * the start compiled; it does nothing when the cache was used. Loading the server took ~410 ms
 * with the cache against ~590 ms without (issue 30). A cache V8 refuses (another Node, other
 * flags) is replaced the same way.
 */
export function loadServerBuild(dir) {
  const file = path.join(dir, BUNDLE);
  const cacheFile = `${file}.cache`;
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const script = new vm.Script(wrapCommonJs(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
  return {
    exports: module.exports,
    saveCodeCache() {
      if (cachedData && !script.cachedDataRejected) return;
      const temp = `${cacheFile}.tmp-${process.pid}`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, cacheFile);
    },
  };
}

/** A CommonJS module's source as the function Node's own loader would make of it. */
const wrapCommonJs = (source) => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
