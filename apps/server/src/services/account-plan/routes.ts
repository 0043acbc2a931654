import { z } from 'zod';
import {
  ZCreditBundlesResponse,
  ZDowngradeRequest,
  ZFetchPlansResponse,
  ZPlanInfo,
  ZPlansResponse,
  ZProblem,
  ZSubscription,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { staffPlanRoutes } from './staff-plan-routes.ts';
import { tierManagementRoutes } from './tier-routes.ts';
import { orderRoutes } from './order-routes.ts';
import { OrderService } from './orders.ts';
import { AccountPlanRepository } from './repository.ts';
import { AccountPlanService } from './service.ts';
import { cardPayments, qntPayments } from '../payment/index.ts';
import { callerOf } from '../../lib/caller.ts';

/** Every error of these routes is a problem document (plugins/problem.ts). */
const problems = { '4xx': ZProblem };

/** Shared OpenAPI metadata: the service's tag and the bearer token every route here requires. */
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };

const ZRatePlanParams = z.object({ id: z.uuid() });

/** The account-plan service (spec §7): the caller's plan and subscription, the plan catalogue, and orders (order-routes.ts). */
export async function accountPlanService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'account-plan', deps.config.version);
  // Orders quote QNT in their own transaction: the deposit keys are loaded before any of them.
  await qntPayments(deps, app.log).prepare();
  const service = new AccountPlanService(
    new AccountPlanRepository(deps.db),
    new AccountPlansRepository(deps.db, deps.events),
    new PlanLifecycle(deps.db, deps.events, { paygCreditLimit: deps.config.billing.paygCreditLimit }),
    new OrderService(
      deps.db,
      deps.events,
      deps.config.billing,
      qntPayments(deps, app.log),
      cardPayments(deps, app.log),
      deps.config.invoices,
    ),
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
    '/subscription',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The caller’s plan: status, dates, allowances and usage, credits and the order awaiting payment',
        description:
          'The plan of the account the caller belongs to (the trial plan until a paid plan is active), why it is in its status, whether its allowances are in service, the period or trial end, a cancellation or downgrade chosen for the period end, what the account uses of each allowance, its credits (lowCredits at 20 or fewer available), the order that waits for payment and the payment methods taken now.',
        response: { 200: ZSubscription, ...problems },
      },
    },
    async (request) => service.subscription(callerOf(request)),
  );

  app.post(
    '/subscription/cancel',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Cancel the plan at the end of its period',
        description:
          'The plan stays active until its period ends, then turns INACTIVE (reason CANCELLED); no refund. Refused for the trial, a plan not active or a renewal awaiting payment (SUBSCRIPTION_NOT_CANCELLABLE). Cancelling again changes nothing.',
        response: { 200: ZSubscription, ...problems },
      },
    },
    async (request) => service.cancel(callerOf(request)),
  );

  app.post(
    '/subscription/resume',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Withdraw a cancellation before the period ends',
        description:
          'The plan renews at the end of its period again. SUBSCRIPTION_NOT_CANCELLED when it was not set to end.',
        response: { 200: ZSubscription, ...problems },
      },
    },
    async (request) => service.resume(callerOf(request)),
  );

  app.post(
    '/subscription/downgrade',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Choose a lower plan for the next period, or keep the current one (null)',
        description:
          'A plan on sale ranked below the current one (pay as you go standard < advance < annual standard < advance) applies at the end of the period; the renewal is for it. Choosing one withdraws a cancellation. RATE_PLAN_NOT_FOUND for a plan not on sale, PLAN_ALREADY_CURRENT for one not lower, SUBSCRIPTION_NOT_CANCELLABLE on the trial, a plan not active or a renewal awaiting payment.',
        body: ZDowngradeRequest,
        response: { 200: ZSubscription, ...problems },
      },
    },
    async (request) => service.downgrade(callerOf(request), request.body.ratePlanId),
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
        description:
          'Prices include VAT, in US cents, with the price per credit (the sliding scale of spec §9). A plan not on sale answers 404 RATE_PLAN_NOT_FOUND, unless it is the caller’s own plan (a retired tier its accounts keep).',
        params: ZRatePlanParams,
        response: { 200: ZCreditBundlesResponse, ...problems },
      },
    },
    async (request) => service.creditBundles(callerOf(request), request.params.id),
  );

  await orderRoutes(app, deps);
  await staffPlanRoutes(app, deps);
  await tierManagementRoutes(app, deps);
}
