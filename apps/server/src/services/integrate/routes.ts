import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ZActivateNetworksRequest,
  ZActivateNetworksResponse,
  ZCatalogueResponse,
  ZDeletePrivateNetworkRequest,
  ZEnvironmentManagerResponse,
  ZPrivateNetworkRequest,
  ZPrivateNetworkValidation,
  ZProblem,
  ZUserNetwork,
  ZUserNetworksQuery,
  ZUserNetworksResponse,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { IntegrateRepository } from './repository.ts';
import { IntegrateService } from './service.ts';
import { callerOf } from '../../lib/caller.ts';
import { privateNetworkReviewRoutes } from './review-routes.ts';
import { privateNetworkProbe, type RpcProbeFn } from './rpc-check.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['integrate'], security: [{ bearerAuth: [] }] };

export type IntegrateOptions = { probe?: RpcProbeFn };

/**
 * Each check makes the server call a URL the user chose (two requests of up to 5 s), so checks
 * are limited per user on top of the global per-address limit: this many a minute on validate,
 * as many on submit, and as many on the staff's check run again (each route counts its own).
 */
export const PRIVATE_NETWORK_CHECKS_PER_MINUTE = 20;
const privateNetworkCheckLimit = {
  max: PRIVATE_NETWORK_CHECKS_PER_MINUTE,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) => `private-network-check:${request.user?.id ?? request.ip}`,
};

/** The integrate service (spec §7): networks, My networks, the environment manager and private networks. */
export async function integrateService(app: App, deps: Deps, options: IntegrateOptions = {}) {
  serviceStatusRoute(app, 'integrate', deps.config.version);
  const probe =
    options.probe ??
    privateNetworkProbe({ allowPrivateAddresses: deps.config.chains.privateNetworkAllowPrivateAddresses });
  const service = new IntegrateService(new IntegrateRepository(deps.db, deps.events), probe);
  const myNetworks = async (request: FastifyRequest) => service.requireFeature(callerOf(request), 'mynetworks:v2');

  app.get(
    '/v2/networks',
    {
      config: { access: 'user' },
      preHandler: myNetworks,
      schema: {
        ...docs,
        summary: 'The network catalogue with what the caller may activate',
        description:
          'Every public testnet and mainnet with its live status and, for the caller, whether it is active, can be activated, or why not (`reason`: NO_RPC_URL, PLAN_INACTIVE, PLAN_MAINNETS, KYC_REQUIRED, MAINNET_ALLOWANCE, TESTNET_ALLOWANCE, BLOCKCHAIN_ALLOWANCE). `allowance` is the plan’s blockchain allowance (0 = all), with mainnetAllowance and testnetAllowance (counts; 0 = none) and rateLimit, the plan’s gateway rate limit: requests a second on each network, shared by the account’s applications — what the gateway enforces, and each network’s networkRateLimit. Needs the feature mynetworks:v2 (else 404).',
        response: { 200: ZCatalogueResponse, ...problems },
      },
    },
    async (request) => service.catalogue(callerOf(request)),
  );

  app.post(
    '/v2/networks',
    {
      config: { access: 'user' },
      preHandler: myNetworks,
      schema: {
        ...docs,
        summary: 'Activate networks for the caller’s account (all or none)',
        description:
          'Each network must exist and have an RPC URL; mainnets need a plan that allows them and a verified identity; the selection must fit the plan’s blockchain allowance. Any failure rejects the whole selection with invalidParams (`networkIds.<index>` or `networkIds`). Networks already active are left as they are.',
        body: ZActivateNetworksRequest,
        response: { 200: ZActivateNetworksResponse, ...problems },
      },
    },
    async (request) => service.activate(callerOf(request), request.body.networkIds),
  );

  app.get(
    '/v2/user-networks',
    {
      config: { access: 'user' },
      preHandler: myNetworks,
      schema: {
        ...docs,
        summary: 'My networks: the account’s networks, optionally of one type',
        description:
          'Public networks carry their live status (ONLINE, DEGRADED, OFFLINE, NOT_CONFIGURED); private networks their review state (UNDER_REVIEW, ACTIVE, REJECTED, REMOVAL_REQUESTED, REMOVED). networkRateLimit is what the gateway enforces for the account on a public network: the plan’s requests a second per network, shared by its applications (null for private networks). networkType=private needs the feature privateNetwork.',
        querystring: ZUserNetworksQuery,
        response: { 200: ZUserNetworksResponse, ...problems },
      },
    },
    async (request) => ({ networks: await service.userNetworks(callerOf(request), request.query.networkType) }),
  );

  app.get(
    '/environment-manager/networks/:accountId',
    {
      config: { access: 'user' },
      preHandler: myNetworks,
      schema: {
        ...docs,
        summary: 'The environment manager’s blockchains with their networks',
        description: 'Only the caller’s own account id is found; any other answers 404.',
        params: z.object({ accountId: z.uuid({ message: 'The account id must be a UUID.' }) }),
        response: { 200: ZEnvironmentManagerResponse, ...problems },
      },
    },
    async (request) => service.environmentManager(callerOf(request), request.params.accountId),
  );

  app.post(
    '/private-networks/validate',
    {
      config: { access: 'user', rateLimit: privateNetworkCheckLimit },
      schema: {
        ...docs,
        summary: 'Check a private network’s details and RPC URL without saving',
        description:
          'Field rules as the form, a name unique within the account, and the RPC URL read for real: it must answer (else `url`), report the entered chain id (else `chainId`) and have a base fee in its latest block exactly when `eip1559` is on (else `eip1559`). Needs the feature privateNetwork (else 404).',
        body: ZPrivateNetworkRequest,
        response: { 200: ZPrivateNetworkValidation, ...problems },
      },
    },
    async (request) => service.validatePrivateNetwork(callerOf(request), request.body),
  );

  app.post(
    '/private-networks',
    {
      config: { access: 'user', rateLimit: privateNetworkCheckLimit },
      schema: {
        ...docs,
        summary: 'Submit a private network for review',
        description:
          'The same checks as /private-networks/validate; the network is stored UNDER_REVIEW (answer within 5 working days) until staff approve or reject it.',
        body: ZPrivateNetworkRequest,
        response: { 201: ZUserNetwork, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createPrivateNetwork(callerOf(request), request.body)),
  );

  app.delete(
    '/private-networks',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Request the removal of a private network',
        description:
          'The network becomes REMOVAL_REQUESTED; staff complete the removal within 2–5 working days. A rejected network is removed at once. Another account’s id answers 404.',
        body: ZDeletePrivateNetworkRequest,
        response: { 200: ZUserNetwork, ...problems },
      },
    },
    async (request) => service.requestRemoval(callerOf(request), request.body.id),
  );

  // Staff review the submitted networks (issue 33 §4).
  await privateNetworkReviewRoutes(app, deps, { probe, rateLimit: privateNetworkCheckLimit });
}
