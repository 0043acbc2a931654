// The build configuration runs in Node, not in the browser bundle the rule below guards.
/* eslint-disable no-restricted-imports */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const BROTLI_QUALITY = 10;

/**
 * Writes a brotli (`.br`, quality 10) and a gzip (`.gz`, level 9) copy next to every text file of
 * the build, for the server to send as they are (@fastify/static `preCompressed`, see
 * apps/server/src/plugins/spa.ts): compression paid once at build time rather than on every
 * request. Quality 10 rather than brotli's maximum, 11: 1.7 % more bytes (705 against 693 kB for
 * the whole build, 175 against 172 kB for the first screen's files) for 1.3 s of CPU instead of
 * 3.3 s, a first start's largest single step after the bundling (issue 30). A copy is only written
 * when it is at least 10% smaller than the file; source maps are left alone (only developer tools
 * fetch them).
 */
function precompress(): Plugin {
  let config: ResolvedConfig;
  const compressible = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
  async function filesUnder(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    const nested = await Promise.all(
      entries.map((entry) => {
        const file = path.join(dir, entry.name);
        return entry.isDirectory() ? filesUnder(file) : [file];
      }),
    );
    return nested.flat();
  }
  return {
    name: 'connect:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const files = (await filesUnder(outDir)).filter((file) => compressible.test(file));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(file);
          const worthIt = (copy: Buffer) => copy.length <= body.length * 0.9;
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: (await stat(file)).size,
              },
            }),
            gzipAsync(body, { level: 9 }),
          ]);
          await Promise.all([
            worthIt(br) ? writeFile(`${file}.br`, br) : undefined,
            worthIt(gz) ? writeFile(`${file}.gz`, gz) : undefined,
          ]);
        }),
      );
    },
  };
}

/**
 * Preloads the Inter file the first screen paints with (styles/inter.css: one variable file for
 * every weight). Chromium holds text back until its web font arrives (briefly, even with
 * font-display: swap), and a font is only requested once layout finds text that needs it, after
 * every script has run: without the hint the font is the last link of the chain before the first
 * contentful paint.
 */
function preloadFont(file: RegExp): Plugin {
  return {
    name: 'connect:preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const files = Object.keys(bundle ?? {}).filter((name) => file.test(name));
        return files.map((name) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${name}`, as: 'font', type: 'font/woff2', crossorigin: true },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** MUI and what it needs: modules two or more lazy parts share go to the `mui` chunk (below). */
const MUI_SHARED =
  /node_modules[\\/](@mui(?=[\\/](?!x-))|@emotion|stylis|react-transition-group|@popperjs|react-is|hoist-non-react-statics|clsx)[\\/]/;
/**
 * MUI parts the staff console's DataGrid brings in for its panels and menus (its `material` slots
 * import them all) that only one other lazy part uses besides (Tabs: the application details;
 * ClickAwayListener: the snackbar). Counted as shared because of the staff pages, they would load
 * with every MUI page (+16 KB, +4.7 KB gzipped in the `mui` chunk); left out of the group, each
 * sits in a small chunk that only its users load (one more request for those). Badge and
 * ListSubheader, which the DataGrid shares with the signed-in frame, do go to `mui`: the frame
 * loads them anyway, and a chunk of their own would cost every signed-in page a request.
 */
const DATA_GRID_SLOTS =
  /node_modules[\\/]@mui[\\/]material[\\/](Tabs|Tab|TabScrollButton|ClickAwayListener|internal[\\/]animate)[\\/.]/;

export default defineConfig({
  plugins: [react(), preloadFont(/inter-latin-wght-normal-[^/]*\.woff2$/), precompress()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // The MUI parts that two or more lazy routes share go in one chunk, and TanStack Query in
        // another: split per component they made the signed-in first page fetch ~100 files, and
        // over HTTP/1.1's six connections per origin the queue, not the bytes, held back its first
        // paint (Lighthouse /dashboard 86 -> 95 at load average ~6; ~45 requests now). /login
        // loads neither. Only the matched modules move (not what they import, such as React's JSX
        // runtime, which every page would then fetch from the MUI chunk). MUI X (the charts of the
        // usage page and the application details) stays out: shared by two lazy parts, it would
        // otherwise put ~210 KB (~65 KB gzipped) into the chunk every signed-in page loads.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'mui',
              test: (id: string) => MUI_SHARED.test(id) && !DATA_GRID_SLOTS.test(id),
              minShareCount: 2,
            },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
      experimental: {
        // Rolldown moves modules that several lazy pages share into a chunk every page loads
        // first (here the full zod and the shared schemas, ~30 KB gzipped, which /login does not
        // use). Kept apart, they load with the pages that use them.
        chunkOptimization: { mergeCommonChunks: false },
      },
    },
  },
  server: {
    // `npm run dev -w apps/web` talks to a server started with `npm start` on 8080.
    proxy: {
      '/api': 'http://localhost:8080',
      '/idp': 'http://localhost:8080',
      '/runtime-config.json': 'http://localhost:8080',
    },
  },
});
