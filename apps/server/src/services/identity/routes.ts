import { z } from 'zod';
import type { App, Deps } from '../../types.ts';

/** The embedded user pool's HTTP surface, mounted at /idp. */
export async function identityRoutes(app: App, deps: Deps) {
  const keys = deps.keys!;
  app.get(
    `/${deps.pool.poolId}/.well-known/jwks.json`,
    {
      config: { access: 'public', rateLimit: false },
      schema: {
        tags: ['identity'],
        summary: 'Public keys that verify the pool’s tokens',
        response: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return keys.jwks() as { keys: Record<string, unknown>[] };
    },
  );
}
