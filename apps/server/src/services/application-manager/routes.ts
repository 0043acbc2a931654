import { z } from 'zod';
import {
  APPLICATION_TYPES,
  ZApplication,
  ZApplicationKeyIdsResponse,
  ZApplicationNetworksResponse,
  ZApplicationsPage,
  ZApplicationsQuery,
  ZApplicationUsage,
  ZCreateApplicationRequest,
  ZCreateApplicationResponse,
  ZProblem,
  ZRotateSecretRequest,
  ZRotateSecretResponse,
  ZUpdateApplicationRequest,
  ZUsageQuery,
  ZValidateApplicationRequest,
  ZValidateApplicationResponse,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { applicationChanges } from '../../lib/application-changes.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { ApplicationRepository } from './repository.ts';
import { ApplicationService } from './service.ts';
import { usageRoutes } from '../usage/index.ts';
import { callerOf } from '../../lib/caller.ts';
import { applicationManagementRoutes } from './management-routes.ts';

const ZIdParams = z.object({ id: z.uuid({ message: 'The application id must be a UUID.' }) });
const ZSecretParams = ZIdParams.extend({ secretId: z.uuid({ message: 'The secret id must be a UUID.' }) });
const ZNetworksQuery = z.object({ applicationType: z.enum(APPLICATION_TYPES).optional() });

const problems = { '4xx': ZProblem };
const docs = { tags: ['application-manager'], security: [{ bearerAuth: [] }] };

/**
 * The application-manager service (spec §7): API applications, their secrets, keys and usage.
 *
 * Each route is declared in full — its access level, summary, schemas — like every service's
 * routes (tokenise/routes.ts has the same shape): the access check and the OpenAPI document read
 * the declaration where the route is, so the repeated shape (duplicate D7 of issue 29) stays.
 */
export async function applicationManagerService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'application-manager', deps.config.version);
  const changes = applicationChanges(deps);
  const service = new ApplicationService(new ApplicationRepository(deps.db, deps.events), deps.box, deps.config, (id) =>
    changes.changed(id),
  );

  app.post(
    '/create-application',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Register an application (the registration stepper)',
        description:
          'Creates the application with a client id, a client secret (answered this once; only its SHA-256 is stored) and a secp256k1 signing key (private half encrypted at rest). Counts against the applications:create allowance (409 when it is used up). Networks must be activated by the account and of the application’s type; mainnet applications need a verified identity (409).',
        body: ZCreateApplicationRequest,
        response: { 201: ZCreateApplicationResponse, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(callerOf(request), request.body)),
  );

  app.put(
    '/application',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Edit an application (name, callback URL, networks, testnet signing)',
        description: 'The application type is fixed after creation: a different `applicationType` answers 400.',
        body: ZUpdateApplicationRequest,
        response: { 200: ZApplication, ...problems },
      },
    },
    async (request) => service.update(callerOf(request), request.body),
  );

  app.get(
    '/applications',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The account’s applications, paged, with the allowance',
        description:
          'Search by name (`search`, case-insensitive substring), filter by `networkId` and `applicationType`; `page` is zero-based and `size` one of 5, 10, 50, 100. `quota` is the applications:create allowance (used / total; total null = unlimited).',
        querystring: ZApplicationsQuery,
        response: { 200: ZApplicationsPage, ...problems },
      },
    },
    async (request) => service.list(callerOf(request), request.query),
  );

  app.get(
    '/applications/key-ids',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Signing key ids and public keys of the account’s applications',
        response: { 200: ZApplicationKeyIdsResponse, ...problems },
      },
    },
    async (request) => service.keyIds(callerOf(request)),
  );

  app.get(
    '/application/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'One application of the caller’s account',
        description: 'Another account’s application answers 404, as an unknown id does.',
        params: ZIdParams,
        response: { 200: ZApplication, ...problems },
      },
    },
    async (request) => service.get(callerOf(request), request.params.id),
  );

  app.delete(
    '/application/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Delete an application',
        description: 'Its secrets stop working at once and the allowance is given back.',
        params: ZIdParams,
        response: { 204: z.null(), ...problems },
      },
    },
    async (request, reply) => {
      await service.delete(callerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/validate',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Check an application name (format and uniqueness in the account)',
        description:
          '200 `{ valid: true }` when the name can be used; 400 for a malformed name; 409 when the account already has it (`id` excludes the application being edited).',
        body: ZValidateApplicationRequest,
        response: { 200: ZValidateApplicationResponse, ...problems },
      },
    },
    async (request) => service.validateName(callerOf(request), request.body.name, request.body.id),
  );

  app.get(
    '/networks',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Networks the account can associate with an application',
        description:
          'The networks the account has activated (My networks), optionally of one application type. Each network’s rateLimit is what the gateway enforces for the account: the plan’s requests a second per network, shared by its applications.',
        querystring: ZNetworksQuery,
        response: { 200: ZApplicationNetworksResponse, ...problems },
      },
    },
    async (request) => ({
      networks: await service.availableNetworks(callerOf(request), request.query.applicationType),
    }),
  );

  app.get(
    '/networks/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Networks an existing application can associate',
        description: 'The account’s activated networks of the application’s type (the edit dialog’s choices).',
        params: ZIdParams,
        response: { 200: ZApplicationNetworksResponse, ...problems },
      },
    },
    async (request) => ({ networks: await service.networksForApplication(callerOf(request), request.params.id) }),
  );

  app.post(
    '/application/:id/rotate-secret',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Issue a new client secret',
        description:
          'Answers the new secret once. The secrets in use keep working for `gracePeriodMinutes`, then are refused; 0 revokes them now.',
        params: ZIdParams,
        body: ZRotateSecretRequest,
        response: { 200: ZRotateSecretResponse, ...problems },
      },
    },
    async (request) => service.rotateSecret(callerOf(request), request.params.id, request.body.gracePeriodMinutes),
  );

  app.delete(
    '/application/:id/secrets/:secretId',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Revoke one client secret now',
        params: ZSecretParams,
        response: { 200: ZApplication, ...problems },
      },
    },
    async (request) => service.revokeSecret(callerOf(request), request.params.id, request.params.secretId),
  );

  app.get(
    '/application/:id/usage',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Daily JSON-RPC requests through the gateway',
        description:
          'One zero-filled entry per UTC day for the last `days` days (default 14, at most 90), and totals per network.',
        params: ZIdParams,
        querystring: ZUsageQuery,
        response: { 200: ZApplicationUsage, ...problems },
      },
    },
    async (request) => service.usage(callerOf(request), request.params.id, request.query.days),
  );

  // Staff's application management (issue 33 §2) creates through this same service.
  applicationManagementRoutes(app, deps, service);

  // The usage API sets an application's cap through this service's repository (its table).
  usageRoutes(app, deps, (db, applicationId, capMicro) =>
    new ApplicationRepository(db, deps.events).setMonthlyCap(applicationId, capMicro),
  );
}
