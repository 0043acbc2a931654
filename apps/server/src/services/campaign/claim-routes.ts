import { z } from 'zod';
import {
  ZClaim,
  ZClaimDetail,
  ZClaimHistoryResponse,
  ZClaimRequest,
  ZManagementClaimsQuery,
  ZManagementClaimsResponse,
  ZProblem,
  ZRejectClaimRequest,
  ZRewardPageQuery,
  ZTreasury,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import type { App, Deps } from '../../types.ts';
import { REWARDS_ACCESS } from './access.ts';
import { Claims } from './claims.ts';
import { ClaimPayouts } from './payouts.ts';

const problems = { '4xx': ZProblem, 503: ZProblem };
const docs = { tags: ['campaign'], security: [{ bearerAuth: [] }] };
/** Issue 34 §3: the claim list and payouts are an administrator's (management-admin). */
const admin = { groups: ['management-admin' as const] };
const ZClaimParams = z.object({ id: z.uuid({ message: 'The claim id must be a UUID.' }) });
const GATED =
  'Needs rewards: the feature reward and a paid plan bought with QNT (409 REWARDS_NEED_QNT_PLAN otherwise, never 403).';

/** What the claims give the service's start-up and jobs (module.ts). */
export type ClaimsRuntime = { payouts: ClaimPayouts };

/**
 * Claims and their payouts (issue 34 §2–3; spec §7), under the campaign service's prefix: the
 * customer's POST /reward and GET /reward/transactions, and the administrators' claim list,
 * detail, pay, reject and treasury. Answers the runtime face the module publishes.
 */
export async function claimRoutes(app: App, deps: Deps): Promise<ClaimsRuntime> {
  const claims = new Claims(deps);
  const payouts = new ClaimPayouts(deps, claims, app.log);
  await payouts.prepare();
  const actor = (request: Parameters<typeof callerOf>[0]) => ({ ...callerOf(request), requestId: request.id });

  app.post(
    '/reward',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'Claim reward QNT to an address',
        description: `Claims \`qnt\` (QNT as a decimal string, more than 0, at most 18 decimals) of the account's reward balance to \`address\` (0x and 40 hex digits; mixed case only with a correct EIP-55 checksum): 400 INVALID_REQUEST with invalidParams otherwise. The amount leaves the balance at once, held for the claim (409 CLAIM_ABOVE_BALANCE when the balance does not hold it: of two claims for the whole balance one wins; 409 CLAIM_BELOW_MINIMUM under the smallest claim, REWARD_MIN_CLAIM_QNT). Answers the PENDING claim with its tracking code (CLM-…); the customer is told by email and in the bell. A repeated \`idempotencyKey\` (one per claim form) answers the first claim and takes nothing more. Claims are paid within 5 working days and cannot be undone. ${GATED}`,
        body: ZClaimRequest,
        response: { 201: ZClaim, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await claims.make(callerOf(request), request.body)),
  );

  app.get(
    '/reward/transactions',
    {
      config: { access: REWARDS_ACCESS },
      schema: {
        ...docs,
        summary: 'The account’s claims (claim history)',
        description: `The account's claims, newest first, in zero-based pages (page, size; default size 5). ${GATED}`,
        querystring: ZRewardPageQuery,
        response: { 200: ZClaimHistoryResponse, ...problems },
      },
    },
    async (request) => claims.ofAccount(callerOf(request).accountId, request.query.page, request.query.size),
  );

  app.get(
    '/management/reward/transactions',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The claim list of /claim-management (administrators)',
        description:
          'Claims of the given statuses (status, repeated: the pending tab asks PENDING and PAYING, the completed tab COMPLETED and REJECTED; all when absent), of one account (accountId), sorted by `field,order` (accountId or createdAt, asc or desc; default createdAt,desc), in zero-based pages (page, size; default 5).',
        querystring: ZManagementClaimsQuery,
        response: { 200: ZManagementClaimsResponse, ...problems },
      },
    },
    async (request) => claims.list(request.query),
  );

  app.get(
    '/management/reward/claims/:id',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'A claim with its history (administrators)',
        description:
          'The claim, its payout transaction once sent, and its history: each status it took (PENDING, PAYING, COMPLETED, REJECTED) and each transaction sent for it (SENT, RESENT after a fee bump, REVERTED when the chain lost or reverted it). 404 CLAIM_NOT_FOUND.',
        params: ZClaimParams,
        response: { 200: ZClaimDetail, ...problems },
      },
    },
    async (request) => claims.detail(request.params.id),
  );

  app.post(
    '/management/reward/claims/:id/pay',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Pay a claim from the treasury (administrators)',
        description:
          'A PENDING claim (409 CLAIM_NOT_PENDING otherwise, also for the second of two clicks) becomes PAYING: the treasury’s QNT transfer to the claim’s address is signed and stored with it before it is sent, so it is paid exactly once, also across a crash. The claim is COMPLETED (and the customer told) once the chain follower has seen the transfer with its confirmations. 409 TREASURY_SHORT when the treasury cannot cover it beside the payouts in flight; 503 TREASURY_UNAVAILABLE when payouts are not configured or the node refuses the transfer (the claim stays PENDING). Audited (CLAIM_PAID).',
        params: ZClaimParams,
        response: { 200: ZClaimDetail, ...problems },
      },
    },
    async (request) => payouts.pay(request.params.id, actor(request)),
  );

  app.post(
    '/management/reward/claims/:id/reject',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Reject a claim (administrators)',
        description:
          'A PENDING claim (409 CLAIM_NOT_PENDING otherwise) is REJECTED with the reason: its amount goes back to the account’s reward balance and the customer is told the reason. Audited (CLAIM_REJECTED).',
        params: ZClaimParams,
        body: ZRejectClaimRequest,
        response: { 200: ZClaimDetail, ...problems },
      },
    },
    async (request) => claims.reject(request.params.id, request.body.reason, actor(request)),
  );

  app.get(
    '/management/reward/treasury',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The rewards treasury (administrators)',
        description:
          'The address claims are paid from, its network, the QNT it holds on chain, and what is promised: the budgets of published and active campaigns not yet granted, the rewards earned and not claimed, and the claims not yet paid. 503 TREASURY_UNAVAILABLE when payouts are not configured or the network cannot be reached.',
        response: { 200: ZTreasury, ...problems },
      },
    },
    async () => claims.treasury(),
  );

  return { payouts };
}
