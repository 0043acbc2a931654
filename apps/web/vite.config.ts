import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Preloads the Inter files the first screen paints with. Chromium holds text back until its web
 * font arrives (briefly, even with font-display: swap), and a font is only requested once layout
 * finds text that needs it, after every script has run: without the hint the fonts are the last
 * link of the chain before the first contentful paint. 500 is left out: /login does not use it.
 */
function preloadFonts(weights: number[]): Plugin {
  return {
    name: 'connect:preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const files = Object.keys(bundle ?? {}).filter((file) =>
          weights.some((weight) => new RegExp(`inter-latin-${weight}-normal-[^/]*\\.woff2$`).test(file)),
        );
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${file}`, as: 'font', type: 'font/woff2', crossorigin: true },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadFonts([400, 600, 700])],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      // The entry exports nothing; required by experimentalInlineCommonChunks below.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // Left alone, the lazy pages split MUI and the rest into ~100 chunks, many tiny, and
          // /login fetched 32 scripts: over HTTP/1.1 each costs a round trip on one of six
          // connections. Common chunks under 16 KB are copied into the chunks that use them instead:
          // /login fetches 15 scripts for ~6 KB more gzipped JS, and Lighthouse scores 1–2 higher.
          // Experimental in Rolldown 1.2: if a build misbehaves, removing this line (and
          // preserveEntrySignatures) only costs those requests.
          experimentalInlineCommonChunks: { maxSize: 16 * 1024 },
        },
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
