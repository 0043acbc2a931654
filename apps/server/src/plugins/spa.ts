import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { notFound } from '../lib/errors.ts';

/**
 * Serves the built SPA with history-mode fallback: a path that is not a file gets index.html,
 * except under /api and /idp, which answer 404 problem details. Hashed assets are cached for a
 * year; index.html never, so a new deployment is picked up at once.
 */
export const spaPlugin = fp<{ root: string }>(
  async (app, { root }) => {
    const indexFile = path.join(root, 'index.html');
    await app.register(fastifyStatic, { root, serve: false, decorateReply: true });

    app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const pathname = decodeURIComponent(request.url.split('?')[0]!);
      if (/^\/(api|idp)(\/|$)/.test(pathname)) throw notFound(`No route GET ${pathname}.`);
      const candidate = path.resolve(root, `.${pathname}`);
      const isInsideRoot = candidate.startsWith(root + path.sep);
      if (isInsideRoot && existsSync(candidate) && statSync(candidate).isFile()) {
        const immutable = pathname.startsWith('/assets/');
        return reply.sendFile(path.relative(root, candidate), root, {
          cacheControl: true,
          immutable,
          maxAge: immutable ? 31_536_000_000 : 0,
        });
      }
      if (path.extname(pathname)) throw notFound(`No file ${pathname}.`);
      if (!existsSync(indexFile)) {
        throw notFound('The web app has not been built. Run `npm run build` (npm start does it for you).');
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false });
    });
  },
  { name: 'spa' },
);
