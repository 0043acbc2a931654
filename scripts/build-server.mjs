// The server compiled to JavaScript for `npm start` (issue 30): apps/server/src, the workspace
// packages and most npm dependencies bundled by esbuild into ES modules. Node loads it without
// tsx compiling the TypeScript graph at run time (3.3 s of a restart); building takes ~2 s. The entry (server.ts) and the rest (main.ts) are separate files, so the
// database starts opening before the rest loads.
//
// A build lives in apps/server/dist/<hash of its sources>/ (git-ignored): it is current exactly
// while that directory exists, servers running from an older build keep their files, and two
// starts building at once each write their own directory and keep the first one renamed in place.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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
        const url = `new URL(${JSON.stringify(fromBuild)}, import.meta.url).href`;
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

/**
 * The server's build for the current sources, built now unless it exists: its directory holds
 * server.mjs (the server) and database.mjs (prepareNewEmbeddedDatabase, for `npm start`).
 */
export async function ensureServerBuild(root) {
  const dir = path.join(root, serverBuildDir(root));
  if (existsSync(path.join(dir, 'server.mjs'))) return { dir, built: false };
  const esbuild = await import('esbuild');
  // Written beside its final place (same depth: the rewritten locations hold), then renamed.
  const temp = `${dir}.tmp-${process.pid}`;
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['server', 'database'].map((name) => path.join(root, `apps/server/src/${name}.ts`)),
    outdir: temp,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]', // beside the entry, never in a subfolder (the rewritten locations)
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalDependencies, sourceLocationPlugin(temp)],
    // Bundled CommonJS packages require Node's modules and the external ones through it.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    keepNames: true, // class and function names as written (error names, logs)
    logLevel: 'warning',
    legalComments: 'none',
  });
  try {
    renameSync(temp, dir);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true }); // another start built the same sources first
    if (!existsSync(path.join(dir, 'server.mjs'))) throw error;
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
