import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZCreditBundlesResponse, ZFetchPlansResponse, ZPlanInfo, ZPlansResponse, ZProblem } from '@connect/shared';
import { unauthorized } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
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

const ZRatePlanParams = z.object({ id: z.uuid() });

/** The account-plan service (spec §7): the caller's plan and the plan catalogue; orders and subscriptions arrive with the issues that build them. */
export async function accountPlanService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'account-plan', deps.config.version);
  const service = new AccountPlanService(
    new AccountPlanRepository(deps.db),
    new AccountPlansRepository(deps.db, deps.events),
  );

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

  app.get(
    '/plans',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Every plan on sale, with its prices, payment methods and allowances',
        description:
          'Pay as you go (monthly; credits billed at month end) and the Annual Subscription (its fee a year in advance, in pounds and QNT; credit bundles), in the tiers standard and advance, in the catalogue’s order.',
        response: { 200: ZPlansResponse, ...problems },
      },
    },
    async () => service.plans(),
  );

  app.get(
    '/v2/fetch-plans',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary:
          'The plans table of the upgrade journey: pay as you go against the annual subscription, with their tiers',
        response: { 200: ZFetchPlansResponse, ...problems },
      },
    },
    async () => service.fetchPlans(),
  );

  app.get(
    '/rate-plan/:id/credit-bundles',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The credit bundles a plan sells, smallest first (none for pay as you go)',
        description: 'Prices include VAT, in US cents, with the price per credit (the sliding scale of spec §9).',
        params: ZRatePlanParams,
        response: { 200: ZCreditBundlesResponse, ...problems },
      },
    },
    async (request) => service.creditBundles(request.params.id),
  );
}
