import type { FastifyRequest } from 'fastify';
import { ZPlanInfo, ZProblem } from '@connect/shared';
import { unauthorized } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { AccountPlanRepository } from './repository.ts';
import { AccountPlanService } from './service.ts';

/** Every error of these routes is a problem document (plugins/problem.ts). */
const problems = { '4xx': ZProblem };

/** Shared OpenAPI metadata: the service's tag and the bearer token every route here requires. */
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };

/** The access plugin authenticates every 'user' route before its handler; this only narrows the type. */
function callerOf(request: FastifyRequest): PortalUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** The account-plan service (spec §7). Plans, orders and subscriptions arrive with the issues that build them. */
export async function accountPlanService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'account-plan', deps.config.version);
  const service = new AccountPlanService(new AccountPlanRepository(deps.db));

  app.get(
    '/user-plan',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The plan of the caller’s account (top bar and dashboard)',
        description:
          'Plan name, status (ACTIVE, PENDING, INACTIVE, DISABLED), credits left and the renewal or trial end date of the account the caller belongs to. The SPA refreshes it every 10 minutes (spec §4, §9).',
        response: { 200: ZPlanInfo, ...problems },
      },
    },
    async (request) => service.userPlan(callerOf(request)),
  );
}
