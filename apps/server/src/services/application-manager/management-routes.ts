import {
  APPLICATION_ROLES,
  ZApplicationRolesResponse,
  ZManagementApplicationsQuery,
  ZManagementApplicationsResponse,
  ZManagementCreateApplicationRequest,
  ZManagementCreateApplicationResponse,
  ZManagementNetworkCatalogue,
  ZManagementNetworksParams,
  ZManagementNetworksResponse,
  ZProblem,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';
import type { App, Deps } from '../../types.ts';
import { ApplicationManagementService } from './management-service.ts';
import type { ApplicationService } from './service.ts';

const docs = { tags: ['application-manager'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };
/** Spec §2: application management is for management-admin (administrators only). */
const admin = { groups: ['management-admin' as const] };

/**
 * Application management (issue 33 §2; spec §2 Application management, §7 Connect
 * administration), under the application manager's prefix: /api/application-manager/management/….
 */
export function applicationManagementRoutes(app: App, deps: Deps, applications: ApplicationService) {
  const service = new ApplicationManagementService(deps.db, applications);

  app.get(
    '/management/applications',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The application list of /application-management (admin)',
        description: `Every application of every account, or those of the given statuses (status, repeated for several: the account's — ACTIVE, PENDING while its users are all invited and none has signed in, REMOVED when staff closed it and the gateway refuses its credentials) and of one network (networkId), searched by part of the name, client id or owner's email (searchTerm, trimmed: 3 or more characters match anywhere, 1–2 characters the start of the name or email), sorted by name, ownerEmail or createdAt (default createdAt:desc). ${STAFF_LIST_PAGING_DESCRIPTION}`,
        querystring: ZManagementApplicationsQuery,
        response: { 200: ZManagementApplicationsResponse, ...problems },
      },
    },
    async (request) => {
      const { page, size, sort, cursor, searchTerm, status, networkId } = request.query;
      return service.list({ statuses: status, networkId, searchTerm }, { page, size, sort, cursor });
    },
  );

  app.get(
    '/management/application-roles',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The role names an application may have (admin)',
        description: `What an application is for, kept with it: ${APPLICATION_ROLES.join(', ')}. Every application a customer registers is DEVELOPER; staff choose one when they create an application for a user.`,
        response: { 200: ZApplicationRolesResponse, ...problems },
      },
    },
    async () => service.roles(),
  );

  app.get(
    '/management/networks',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Every network of the catalogue (admin)',
        description: 'The choices of the application list’s network filter (networkId), in the catalogue’s order.',
        response: { 200: ZManagementNetworkCatalogue, ...problems },
      },
    },
    async () => service.catalogue(),
  );

  app.get(
    '/management/networks/:accountId/:networkType',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: "An account's networks of a type (admin)",
        description:
          'The networks the account has activated (My networks) of the type (testnet or mainnet), as its users’ own registration lists them: the choices of an application created for one of them. An unknown account answers 404 ACCOUNT_NOT_FOUND.',
        params: ZManagementNetworksParams,
        response: { 200: ZManagementNetworksResponse, ...problems },
      },
    },
    async (request) => ({
      networks: await service.networks(request.params.accountId, request.params.networkType),
    }),
  );

  app.post(
    '/management/applications',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Create an application for a user (admin)',
        description:
          'Registers the application for the user with this email (not REMOVED; else 404 USER_NOT_FOUND on `email`) with a role, as if they had registered it: the account’s applications allowance (409 APPLICATION_QUOTA_REACHED; 409 ACCOUNT_PLAN_NOT_IN_SERVICE when its plan is out of service), a name free in the account (409), networks the account activated of the application’s type (at least one: "Please select at least one of the available networks!"), a verified identity for mainnet (409). The client secret is answered this once; the user is emailed that an application was created for them (without the secret). Audited as APPLICATION_CREATED.',
        body: ZManagementCreateApplicationRequest,
        response: { 201: ZManagementCreateApplicationResponse, ...problems },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create({ ...callerOf(request), requestId: request.id }, request.body)),
  );
}
