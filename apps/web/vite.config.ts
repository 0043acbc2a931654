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
