import { z } from 'zod';
import {
  ZActiveCampaignsResponse,
  ZCampaignHistoryResponse,
  ZOptinResponse,
  ZOptinsResponse,
  ZProblem,
  ZProgressResponse,
  ZRewardPageQuery,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import type { App, Deps } from '../../types.ts';
import { REWARDS_ACCESS } from './access.ts';
import { RewardOptins } from './optins.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['campaign'], security: [{ bearerAuth: [] }] };
const ZCampaignParams = z.object({ id: z.uuid({ message: 'The campaign id must be a UUID.' }) });
const GATED =
  'Needs rewards: the feature reward and a paid plan bought with QNT (409 REWARDS_NEED_QNT_PLAN otherwise, never 403).';

/**
 * The customer's campaigns (issue 34 §2; spec §7 user-facing rewards), under the campaign
 * service's prefix: /api/campaign/campaigns/…. Any signed-in user reaches them (roles 'general');
 * rewards access is checked by each (optins.ts), so a refusal is a 409 the page can explain.
 */
export async function campaignCustomerRoutes(app: App, deps: Deps) {
  const rewards = new RewardOptins(deps.db, deps.config.rewards.minClaimQnt);

  app.get(
    '/campaigns/optins',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'The reward state of the Rewards page',
        description:
          'Whether the account may opt in now (allowedToOptIn) and why not (reason: PLAN without rewards access — the feature reward and a paid plan bought with QNT —, NONE when no campaign is open, OPTED_IN when it is in every open campaign, FULL when every other one is full); the open campaigns it opted in to; whether it ever opted in (the history is open to it then); its REWARD_QNT balance from the ledger, what its unpaid claims hold, and the smallest claim. Answers without rewards access too.',
        response: { 200: ZOptinsResponse, ...problems },
      },
    },
    async (request) => rewards.state(callerOf(request).accountId),
  );

  app.post(
    '/campaigns/optins/:id',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'Opt in to a campaign',
        description: `A PUBLISHED or ACTIVE campaign (409 CAMPAIGN_NOT_OPEN otherwise; 404 CAMPAIGN_NOT_FOUND). Answers OPTED_IN, ALREADY_OPTED_IN, or FULL when it has no room left (the room check and the count are one statement: of two opt-ins for the last place one wins), with allowedToOptIn after it. Activities count from the opt-in on, while the campaign is ACTIVE. ${GATED}`,
        params: ZCampaignParams,
        response: { 200: ZOptinResponse, ...problems },
      },
    },
    async (request) => rewards.optIn(callerOf(request), request.params.id),
  );

  app.get(
    '/campaigns/active',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'The campaigns open to customers',
        description: `PUBLISHED and ACTIVE campaigns that have a published task, by start date, each with its published tasks and whether it is full. ${GATED}`,
        response: { 200: ZActiveCampaignsResponse, ...problems },
      },
    },
    async (request) => rewards.active(callerOf(request).accountId),
  );

  app.get(
    '/campaigns/progress',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'The account’s progress in the campaigns it opted in to',
        description: `Per open campaign the account opted in to: each published task’s count against its threshold, whether it is done (and when), and the QNT it earned there. Recorded from the product’s events (identity verified, networks, applications, gateway calls, tokens, invoices), counted only while the campaign is ACTIVE and after the opt-in. ${GATED}`,
        response: { 200: ZProgressResponse, ...problems },
      },
    },
    async (request) => rewards.progress(callerOf(request).accountId),
  );

  app.get(
    '/campaigns/completed',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'The campaign history: ended campaigns the account took part in',
        description: `COMPLETED campaigns the account opted in to, latest ended first, with what it earned and how many of their tasks it did. Pages are zero-based (page) of size (1–100, default 5). ${GATED}`,
        querystring: ZRewardPageQuery,
        response: { 200: ZCampaignHistoryResponse, ...problems },
      },
    },
    async (request) => rewards.completed(callerOf(request).accountId, request.query.page, request.query.size),
  );
}
