import { z } from 'zod';
import {
  ZProblem,
  ZReorderSubscriptionTiersRequest,
  ZSubscriptionTier,
  ZSubscriptionTierInput,
  ZSubscriptionTiersResponse,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import type { App, Deps } from '../../types.ts';
import { SubscriptionTiers } from './tiers.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['account-plan'], security: [{ bearerAuth: [] }] };
/** Spec §2: the subscription tier form is an administrator's (management-admin = QUANT_ADMIN). */
const admin = { groups: ['management-admin' as const] };
const ZTierParams = z.object({ id: z.uuid() });
const BASE = '/management/subscription-tiers';

const TIER_FIELDS =
  'The spec’s fields (name, blockchains with 0 meaning all, product id, QNT price in wei, short and full description) and what the customers’ plans table shows: the plan type and tier, the annual fee in pence (0 for pay as you go), the price of a pay-as-you-go credit in US cents (at most 120), the credit bundles (credits and their price including VAT in US cents, at most 110 a credit; an `id` keeps an existing bundle), the allowances, the rate limit, the upfront months and the payment methods.';

/**
 * Subscription tiers (issue 33 §3; spec §2 "an administrator create/edit form for subscription
 * tiers", §3, §8 "Subscription tier create or update failures"): the plan catalogue customers buy
 * from, for administrators. The spec names no routes; these sit beside the account-plan service's
 * other staff calls.
 */
export async function tierManagementRoutes(app: App, deps: Deps) {
  const tiers = new SubscriptionTiers(deps.db);
  const actor = (request: Parameters<typeof callerOf>[0]) => ({ ...callerOf(request), requestId: request.id });

  app.get(
    BASE,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Every subscription tier, retired ones included, in the catalogue’s order (administrators)',
        description:
          'Each with its credit bundles (whether an order names each), whether it is retired, and how many accounts have it (as their plan or the next period’s) and orders name it: a tier in use can be retired but not deleted. The trial is not a tier.',
        response: { 200: ZSubscriptionTiersResponse, ...problems },
      },
    },
    async () => tiers.list(),
  );

  app.post(
    BASE,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Create a subscription tier, on sale and last in the order (administrators)',
        description: `${TIER_FIELDS} It appears in the customers’ plans table at once. A name another tier has answers 409 TIER_NAME_EXISTS. Audited (TIER_CREATED).`,
        body: ZSubscriptionTierInput,
        response: { 201: ZSubscriptionTier, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await tiers.create(actor(request), request.body)),
  );

  app.put(
    `${BASE}/order`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Put the subscription tiers in a new order (administrators)',
        description:
          'Every tier once, first to last; the customers’ plans table follows it. A list that is not every tier (one added or deleted since the page loaded) answers 409 TIER_ORDER_STALE. Each tier that moved is audited (TIER_REORDERED).',
        body: ZReorderSubscriptionTiersRequest,
        response: { 200: ZSubscriptionTiersResponse, ...problems },
      },
    },
    async (request) => tiers.reorder(actor(request), request.body.tierIds),
  );

  app.put(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Edit a subscription tier (administrators)',
        description: `${TIER_FIELDS} Orders placed from now on take the new prices; orders already placed keep theirs. A tier in use keeps its plan type and tier (409 TIER_TYPE_FIXED); a bundle an order names can be repriced but not removed (409 CREDIT_BUNDLE_IN_USE). Audited with the fields before and after (TIER_UPDATED).`,
        params: ZTierParams,
        body: ZSubscriptionTierInput,
        response: { 200: ZSubscriptionTier, ...problems },
      },
    },
    async (request) => tiers.update(actor(request), request.params.id, request.body),
  );

  for (const [action, retired] of [
    ['retire', true],
    ['unretire', false],
  ] as const) {
    app.post(
      `${BASE}/:id/${action}`,
      {
        config: { access: admin },
        schema: {
          ...docs,
          summary: retired
            ? 'Retire a subscription tier: hidden from sale, kept by the accounts on it (administrators)'
            : 'Put a retired subscription tier on sale again (administrators)',
          description: retired
            ? 'Customers no longer see it in the plans table or order it (404 RATE_PLAN_NOT_FOUND); accounts on it keep it, buy its credit bundles and renew it. Retiring a retired tier changes nothing. Audited (TIER_RETIRED).'
            : 'It is back in the plans table in its place. Audited (TIER_UNRETIRED).',
          params: ZTierParams,
          response: { 200: ZSubscriptionTier, ...problems },
        },
      },
      async (request) => tiers.setRetired(actor(request), request.params.id, retired),
    );
  }

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Delete a subscription tier nothing names (administrators)',
        description:
          'Only a tier no account has (as its plan or the next period’s) and no order or invoice names: otherwise 409 TIER_IN_USE — retire it instead. Audited with the tier as it was (TIER_DELETED).',
        params: ZTierParams,
        response: { 204: z.null(), ...problems },
      },
    },
    async (request, reply) => {
      await tiers.remove(actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
