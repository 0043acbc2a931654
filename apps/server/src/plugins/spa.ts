import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { notFound } from '../lib/errors.ts';

/**
 * Serves the built SPA with history-mode fallback: a path that is not a file gets index.html,
 * except under /api, /idp and /jsons (the product catalogue), which answer 404 problem details.
 *
 * Compression: the web build writes a brotli (`.br`) and a gzip (`.gz`) copy next to each text
 * asset that shrinks (apps/web/vite.config.ts), and `preCompressed` sends the best one the
 * client accepts — brotli, then gzip, then the file itself — with `Content-Encoding` and
 * `Vary: Accept-Encoding` (on every variant, the identity fallback too, so shared caches keep
 * them apart). Nothing is compressed per request.
 *
 * Caching: hashed assets under /assets/ are cached for a year as immutable; everything else
 * (index.html, the favicon) is revalidated every time, so a new deployment is picked up at once.
 */
export const spaPlugin = fp<{ root: string }>(
  async (app, { root }) => {
    const indexFile = path.join(root, 'index.html');
    await app.register(fastifyStatic, { root, serve: false, decorateReply: true, preCompressed: true });

    app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const pathname = decodeURIComponent(request.url.split('?')[0]!);
      if (/^\/(api|idp|jsons)(\/|$)/.test(pathname)) throw notFound('ROUTE_NOT_FOUND', `No route GET ${pathname}.`);
      const candidate = path.resolve(root, `.${pathname}`);
      const isInsideRoot = candidate.startsWith(root + path.sep);
      // The compressed copies are alternate encodings of their file, not files of their own.
      if (isInsideRoot && !/\.(br|gz)$/.test(pathname) && existsSync(candidate) && statSync(candidate).isFile()) {
        const immutable = pathname.startsWith('/assets/');
        return reply.sendFile(path.relative(root, candidate), root, {
          cacheControl: true,
          immutable,
          maxAge: immutable ? 31_536_000_000 : 0,
        });
      }
      if (path.extname(pathname)) throw notFound('NOT_FOUND', `No file ${pathname}.`);
      if (!existsSync(indexFile)) {
        throw notFound('WEB_APP_NOT_BUILT');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false });
    });
  },
  { name: 'spa' },
);
