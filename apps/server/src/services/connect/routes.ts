import { z } from 'zod';
import {
  ZAcceptTermsRequest,
  ZAvailableFeatures,
  ZCompanyDetailsRequest,
  ZContentFeaturesResponse,
  ZContentUpdatesPage,
  ZFooter,
  ZMfaStatus,
  ZPageQuery,
  ZProblem,
  ZRoutesResponse,
  ZTermsVersion,
  ZUpdateIdentityRequest,
  ZUpdateUserRequest,
  ZUser,
  ZUserSettingsRequest,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { serviceStatusRoute } from '../../lib/service-status.ts';
import { billingRoutes } from './billing-routes.ts';
import { captchaRoutes } from './captcha-routes.ts';
import { contactRoutes } from './contact-routes.ts';
import { gettingStartedRoutes } from './getting-started-routes.ts';
import { kycRoutes } from './kyc-routes.ts';
import { notificationsRoutes } from './notifications-routes.ts';
import { ConnectRepository } from './repository.ts';
import { ConnectService } from './service.ts';
import { signOutRoutes } from './sign-out-routes.ts';
import { staffAlertRoutes } from './staff-alert-routes.ts';
import { userManagementRoutes } from './user-management-routes.ts';
import { accountManagementRoutes } from './account-management-routes.ts';
import { auditLogRoutes } from './audit-log-routes.ts';
import { organisationRoutes } from './organisation-routes.ts';
import { callerOf } from '../../lib/caller.ts';
import { betaRoutes } from '../entitlements/index.ts';

const ZUserIdParams = z.object({ id: z.uuid({ message: 'The user id must be a UUID.' }) });

/** Every error of these routes is a problem document (plugins/problem.ts); documented once here. */
const problems = { '4xx': ZProblem };

/** Shared OpenAPI metadata: the service's tag and the bearer token every route here requires. */
const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };

/** The connect service (spec §7): users, terms, content, features, routes; notifications (their subscribers: app.ts). */
export async function connectService(app: App, deps: Deps) {
  serviceStatusRoute(app, 'connect', deps.config.version);
  await billingRoutes(app, deps);
  await captchaRoutes(app, deps);
  await contactRoutes(app, deps);
  await gettingStartedRoutes(app, deps);
  await kycRoutes(app, deps);
  await notificationsRoutes(app, deps);
  await signOutRoutes(app, deps);
  await staffAlertRoutes(app, deps);
  await userManagementRoutes(app, deps);
  await auditLogRoutes(app, deps);
  await accountManagementRoutes(app, deps);
  betaRoutes(app, deps);
  await organisationRoutes(app, deps);
  const service = new ConnectService(new ConnectRepository(deps.db), deps.identityAdmin, deps.config);

  // Static paths under /user are matched before /user/:id by the router, whatever the order here.
  app.get(
    '/user/:id',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The signed-in user (spec §3 User)',
        description:
          'Only the caller’s own id is found; any other id, existing or not, answers 404 so that no user’s existence leaks (a 403 would also sign the SPA out).',
        params: ZUserIdParams,
        response: { 200: ZUser, ...problems },
      },
    },
    async (request) => service.getUser(callerOf(request), request.params.id),
  );

  app.put(
    '/user',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Save the profile of /user-details',
        description:
          'Updates the user and the account’s organisation fields together; changed names are written to the identity pool first, as PUT /user/identity does. After identity verification the first and last name cannot change (spec §5): a changed name rejects the whole request (409 NAMES_LOCKED) with invalidParams on firstName/lastName.',
        body: ZUpdateUserRequest,
        response: { 200: ZUser, ...problems },
      },
    },
    async (request) => service.updateProfile(callerOf(request), request.body),
  );

  app.put(
    '/user/identity',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Save the first and last name, in the portal and in the identity pool',
        description:
          'The names the identity pool holds too (given_name, family_name), written there first and then on the portal user: if the pool fails (502 IDENTITY_POOL_FAILED) the portal keeps the names it had. Once the identity is verified (onfidoApplicantStatus VERIFIED) the names must match the document (spec §5): a changed name answers 409 NAMES_LOCKED with invalidParams on the changed fields; unchanged names answer the user. While a check is PENDING they can still change (that check then fails on the names).',
        body: ZUpdateIdentityRequest,
        response: { 200: ZUser, ...problems },
      },
    },
    async (request) => service.updateIdentity(callerOf(request), request.body),
  );

  app.put(
    '/user/company-details',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Save the business details of the caller’s account',
        body: ZCompanyDetailsRequest,
        response: { 200: ZUser, ...problems },
      },
    },
    async (request) => service.updateCompanyDetails(callerOf(request), request.body),
  );

  app.put(
    '/user/settings',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Save the promotional email preference',
        body: ZUserSettingsRequest,
        response: { 200: ZUser, ...problems },
      },
    },
    async (request) => service.updateSettings(callerOf(request), request.body),
  );

  app.get(
    '/user/mfa-status',
    {
      // It copies the identity provider's MFA flags onto the user, so the cached user is stale after.
      config: { access: 'user', refreshesUser: true },
      schema: {
        ...docs,
        summary: 'Multi-factor status, refreshed from the identity provider',
        description:
          'Reads the authenticator state from the identity pool and stores it on the portal user (mfaSetup = authenticator verified, mfaConfirm = preferred).',
        response: { 200: ZMfaStatus, ...problems },
      },
    },
    async (request) => service.syncMfaStatus(callerOf(request)),
  );

  app.get(
    '/user/routes',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The role-based route list (spec §4 step 4)',
        description:
          'The signed-in route catalogue filtered for the caller: routes whose access groups do not admit the role, or whose feature is unavailable to the account, are dropped; children recursively (spec §5 route access).',
        response: { 200: ZRoutesResponse, ...problems },
      },
    },
    async (request) => ({ routes: await service.routes(callerOf(request)) }),
  );

  app.post(
    '/terms-conditions',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Accept the latest terms and conditions',
        description:
          'Only the latest version can be accepted; an older or unknown version answers 400 on `version`. Accepting again changes nothing.',
        body: ZAcceptTermsRequest,
        response: { 200: ZUser, ...problems },
      },
    },
    async (request) => service.acceptTerms(callerOf(request), request.body.version),
  );

  app.get(
    '/terms-conditions/version',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The latest terms and conditions version',
        response: { 200: ZTermsVersion, ...problems },
      },
    },
    async () => service.latestTerms(),
  );

  app.get(
    '/content/updates',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Dashboard updates, newest first (zero-based page; the dashboard asks for size 3)',
        querystring: ZPageQuery,
        response: { 200: ZContentUpdatesPage, ...problems },
      },
    },
    async (request) => service.contentUpdates(request.query.page, request.query.size),
  );

  app.get(
    '/content/features',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Dashboard features list, by order',
        description:
          'The product catalogue’s products that have a place on the dashboard (`GET /jsons/products.json`, `dashboardOrder`), each linking to its portal area; one that needs a feature appears only when that feature is available to the account.',
        response: { 200: ZContentFeaturesResponse, ...problems },
      },
    },
    async (request) => ({ features: await service.contentFeatures(callerOf(request)) }),
  );

  app.get(
    '/content/footer',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Footer link sections and secondary links',
        description: 'Links switched by a feature flag appear only when that feature is available to the account.',
        response: { 200: ZFooter, ...problems },
      },
    },
    async (request) => service.footer(callerOf(request)),
  );

  app.get(
    '/available',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Feature availability of the caller’s account',
        description:
          'A map from feature name to { t: total (null = unlimited), a: used }. A feature is available when present and t is null or greater than a.',
        response: { 200: ZAvailableFeatures, ...problems },
      },
    },
    async (request) => ({ availableFeatures: await service.features(callerOf(request)) }),
  );
}
