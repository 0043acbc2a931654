import { z } from 'zod';
import { ZGettingStarted, ZProblem } from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { GettingStartedReadModel } from '../../read-models/getting-started.ts';
import { GettingStartedService } from './getting-started-service.ts';
import { callerOf } from '../../lib/caller.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };
const ZUserIdParams = z.object({ id: z.uuid({ message: 'The user id must be a UUID.' }) });

/** The dashboard's getting-started checklist (issue 11). */
export async function gettingStartedRoutes(app: App, deps: Deps) {
  const service = new GettingStartedService(new GettingStartedReadModel(deps.db));

  app.get(
    '/user/:id/getting-started',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The getting-started checklist of the caller’s account',
        description:
          'The dashboard’s five first steps, in order, each ticked from what was really done: verifyIdentity (the caller’s identity is VERIFIED), selectNetworks (the account has activated a network), registerApplication (it has an application), firstGatewayCall (an application of the account has sent a request through the gateway) and firstToken (a token of the account is deployed: ACTIVE, UNPAID, NOT_ACTIVE or DEPRECATED). Only the caller’s own id is found; any other id answers 404.',
        params: ZUserIdParams,
        response: { 200: ZGettingStarted, ...problems },
      },
    },
    async (request) => service.checklist(callerOf(request), request.params.id),
  );
}
