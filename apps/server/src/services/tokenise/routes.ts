import { z } from 'zod';
import {
  ZCancelTrackingRequest,
  ZCreateTokenRequest,
  ZCreateTokenResponse,
  ZDeleteTokenResponse,
  ZLocationsResponse,
  ZProblem,
  ZTiersQuery,
  ZTiersResponse,
  ZTokenDetails,
  ZTokenDetailsQuery,
  ZTokenResult,
  ZTokensPage,
  ZTokensRequest,
  ZTrackDeploymentRequest,
  ZUpdateTokenRequest,
  ZVerifyTokenRequest,
  ZVerifyTokenResponse,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import type { TokeniseService } from './service.ts';
import { callerOf } from '../../lib/caller.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['tokenise'], security: [{ bearerAuth: [] }] };
const ZIdParams = z.object({ id: z.string().trim().min(1).max(100) });
const ZExternalIdParams = z.object({ externalId: z.string().trim().min(1).max(100) });

/** The tokenise service's routes (spec §7): tokens, their tiers and locations, deployments and tracking. */
export function tokeniseRoutes(app: App, deps: Deps, service: TokeniseService): void {
  serviceStatusRoute(app, 'tokenise', deps.config.version);

  app.post(
    '/tokens',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'My smart tokens: search, filters and paging, with the deployed / allowed counter',
        description:
          'Searches by name or unit (case-insensitive); filters by blockchain (technology), network, token type, tier and status; pages of 5, 10, 50 or 100 (page counts from 0), newest first.',
        body: ZTokensRequest,
        response: { 200: ZTokensPage, ...problems },
      },
    },
    async (request) => service.list(callerOf(request), request.body),
  );

  app.post(
    '/token/verify',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Check a token form for a location and tier without creating anything',
        description:
          'Answers `valid` and the field errors (`invalidParams`) of the form by the tier’s rules (spec §5), and the deployment’s credit amount. The creation guards apply (409: no tokens:create quota; no networks configured).',
        body: ZVerifyTokenRequest,
        response: { 200: ZVerifyTokenResponse, ...problems },
      },
    },
    async (request) => service.verify(callerOf(request), request.body),
  );

  app.post(
    '/v2/token',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Create and deploy a token',
        description:
          'Idempotent by `externalId`: the same id answers the same token (200) and never deploys twice. QUANT: the platform deploys with its deployer key; the token stays PENDING until the receipt, then ACTIVE (credits charged once) or FAILED (nothing charged). META_MASK: answers the exact deployment data for the wallet; report its transaction with PUT /token/deploy/track. 409 when the tokens:create quota is used up, no networks are configured, identity is not verified for a mainnet, or credits do not cover the deployment.',
        body: ZCreateTokenRequest,
        response: { 200: ZCreateTokenResponse, 201: ZCreateTokenResponse, ...problems },
      },
    },
    async (request, reply) => {
      const { created, response } = await service.create(callerOf(request), request.body);
      return reply.code(created ? 201 : 200).send(response);
    },
  );

  app.get(
    '/v2/orchestration/locations',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Technology and network pairs the account can deploy tokens to',
        description:
          'The account’s activated networks that have an RPC URL; mainnets only with a verified identity. Applies the creation guards first: 409 with the quota message when tokens:create is used up, 409 "Please configure your networks before you can deploy tokens" when no network is activated.',
        response: { 200: ZLocationsResponse, ...problems },
      },
    },
    async (request) => service.locations(callerOf(request)),
  );

  app.get(
    '/v2/orchestration/tiers',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Tier cards of a location and token type',
        description:
          'Sorted by name case-insensitively; `shortListFunctions` are the functions not in the previous tier (or all); tiers without the credit amounts the deployment method needs are left out (spec §5).',
        querystring: ZTiersQuery,
        response: { 200: ZTiersResponse, ...problems },
      },
    },
    async (request) => service.tiers(callerOf(request), request.query),
  );

  app.get(
    '/token/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'A token’s details, with its total supply (and a holder’s balance) read live from the chain',
        description: '`id` is the token id or its externalId. `?holder=0x…` adds that address’s balance.',
        params: ZIdParams,
        querystring: ZTokenDetailsQuery,
        response: { 200: ZTokenDetails, ...problems },
      },
    },
    async (request) => service.details(callerOf(request), request.params.id, request.query.holder),
  );

  app.put(
    '/token',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Change a token: deprecate or reactivate it, pay an unpaid one, or edit an unsent wallet deployment',
        body: ZUpdateTokenRequest,
        response: { 200: ZCreateTokenResponse, ...problems },
      },
    },
    async (request) => service.update(callerOf(request), request.body),
  );

  app.delete(
    '/token/:externalId',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Cancel a deployment that has not been sent (deletes the token and frees its tokens:create unit)',
        params: ZExternalIdParams,
        response: { 200: ZDeleteTokenResponse, ...problems },
      },
    },
    async (request) => {
      await service.remove(callerOf(request), request.params.externalId);
      return { deleted: true as const, externalId: request.params.externalId };
    },
  );

  app.put(
    '/token/deploy/track',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Report the transaction hash of a wallet deployment',
        description:
          'The server waits for the receipt and checks on chain that the transaction is a contract creation with exactly the prepared data and that code exists at the new address, then ACTIVE (credits charged once), else FAILED with a reason. A transaction hash tracks one token only.',
        body: ZTrackDeploymentRequest,
        response: { 200: ZTokenResult, ...problems },
      },
    },
    async (request) => service.track(callerOf(request), request.body),
  );

  app.put(
    '/token/deploy/track/cancel',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The user cancelled or denied the wallet deployment (the token fails; nothing is charged)',
        body: ZCancelTrackingRequest,
        response: { 200: ZTokenResult, ...problems },
      },
    },
    async (request) => service.cancelTracking(callerOf(request), request.body),
  );
}
