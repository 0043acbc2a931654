import { z } from 'zod';
import { ZProblem } from '@connect/shared';
import { unauthorized } from '../../lib/errors.ts';
import type { App, Deps } from '../../types.ts';

/**
 * The SPA's sign-out (spec §4: a global sign-out). It goes through the API rather than straight to
 * the identity pool because AWS Cognito never tells a resource server of a sign-out: recorded here,
 * every node of the API refuses the user's access tokens within a second, and the sign-out is then
 * forwarded to the pool (AdminUserGlobalSignOut, or the embedded pool's own).
 */
export async function signOutRoutes(app: App, deps: Deps) {
  app.post(
    '/sign-out',
    {
      config: { access: 'user' },
      schema: {
        tags: ['connect'],
        security: [{ bearerAuth: [] }],
        summary: 'Sign out of every session',
        description:
          'Ends every session of the caller, as the identity pool’s GlobalSignOut does, and makes every `/api` route refuse their access tokens at once (on other server nodes within about a second), including the one that sent this request. Their refresh tokens are revoked at the identity pool. Send no body (or `{}`).',
        // Nothing to send; anything else is refused, so a request meant for another route signs no one out.
        body: z.strictObject({}).nullish(),
        response: { 204: z.null(), '4xx': ZProblem },
      },
    },
    async (request, reply) => {
      if (!request.claims) throw unauthorized();
      const { sub, username, originJti } = request.claims;
      await deps.identityAdmin.signOut({ sub, username, originJti });
      return reply.code(204).send(null);
    },
  );
}
