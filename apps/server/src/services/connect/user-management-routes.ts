import {
  ZInviteUserRequest,
  ZManagedUserRef,
  ZManagementUser,
  ZManagementUsersQuery,
  ZManagementUsersResponse,
  ZProblem,
  ZUpdateManagedUserRequest,
} from '@connect/shared';
import type { FastifyRequest } from 'fastify';
import { applicationChanges } from '../../lib/application-changes.ts';
import { callerOf } from '../../lib/caller.ts';
import { STAFF_LIST_PAGING_DESCRIPTION } from '../../lib/staff-list.ts';
import type { App, Deps } from '../../types.ts';
import { UserManagementService } from './user-management-service.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem, '5xx': ZProblem };
/** Spec §6: inviting, updating, deleting a user and resetting MFA are admin-only. */
const admin = { groups: ['management-admin' as const] };

/** The acting staff member as the audit log records them. */
const actorOf = (request: FastifyRequest) => ({ ...callerOf(request), requestId: request.id });

/** User management (issue 32; spec §2 User management, §7 Connect administration). */
export async function userManagementRoutes(app: App, deps: Deps) {
  const service = new UserManagementService(deps.db, deps.identityAdmin, deps.events, (accountId) =>
    applicationChanges(deps).accountChanged(accountId),
  );

  app.get(
    '/management/users',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The user list of /user-management (admin)',
        description: `One tab (status ACTIVE, PENDING or REMOVED; default ACTIVE), searched by part of a first or last name, email or organisation (searchTerm, trimmed: 3 or more characters match anywhere, 1–2 characters the start of any of them), sorted by ${'firstName, lastName, email, role, organisationName or statusChangedAt'} (default statusChangedAt:desc). \`statusesList\` holds every tab's exact count. ${STAFF_LIST_PAGING_DESCRIPTION}`,
        querystring: ZManagementUsersQuery,
        response: { 200: ZManagementUsersResponse, ...problems },
      },
    },
    async (request) => service.list(request.query),
  );

  app.post(
    '/management/user/invite',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Invite a user (admin)',
        description:
          'The identity pool creates the user with a temporary password and mails the invitation; their first sign-in asks for a new password. The user is PENDING until then. A staff role (QUANT_ADMIN, QUANT_SALES) joins the staff organisation; a customer role opens a new account named organisationName (required). An address already in use answers 409 USER_EXISTS; a failure at the identity pool 502 IDENTITY_POOL_FAILED. Audited as an intent before the pool call and its outcome after.',
        body: ZInviteUserRequest,
        response: { 201: ZManagementUser, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await service.invite(actorOf(request), request.body)),
  );

  app.put(
    '/management/user',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Edit a user: names, role, organisation (admin)',
        description:
          'A staff user keeps a staff role and a customer a customer role (409 STAFF_ROLE_FOR_CUSTOMER). Nobody changes their own role (409 CANNOT_CHANGE_SELF), and the last administrator keeps theirs (409 LAST_ADMIN). A customer’s organisation name is their account’s. Audited with the values before and after.',
        body: ZUpdateManagedUserRequest,
        response: { 200: ZManagementUser, ...problems },
      },
    },
    async (request) => service.update(actorOf(request), request.body),
  );

  app.delete(
    '/management/user',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Remove a user (admin)',
        description:
          'Marks the user REMOVED (with who removed them) and ends their sessions at once, as sign-out does. Removing the account’s last user closes the account: its applications’ client credentials are refused by the gateway. Nobody removes themselves (409 CANNOT_CHANGE_SELF) or the last administrator (409 LAST_ADMIN). Audited.',
        body: ZManagedUserRef,
        response: { 200: ZManagementUser, ...problems },
      },
    },
    async (request) => service.remove(actorOf(request), request.body.userId),
  );

  app.post(
    '/management/user/restore',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Restore a removed user (admin)',
        description:
          'Makes a REMOVED user ACTIVE again and reopens their account if their removal closed it (its applications’ client credentials work again). A user who is not removed answers 409 USER_NOT_REMOVED; one the 90-day purge deleted from the identity pool 409 USER_NOT_RESTORABLE (invite them again); an address another user holds now 409 USER_EXISTS. Audited.',
        body: ZManagedUserRef,
        response: { 200: ZManagementUser, ...problems },
      },
    },
    async (request) => service.restore(actorOf(request), request.body.userId),
  );

  app.post(
    '/management/reset-mfa',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Reset a user’s MFA (admin)',
        description:
          'Removes the user’s authenticator at the identity pool: their next sign-in has no MFA step (a staff user is then asked to set one up again). Audited as an intent before the pool call and its outcome after.',
        body: ZManagedUserRef,
        response: { 200: ZManagementUser, ...problems },
      },
    },
    async (request) => service.resetMfa(actorOf(request), request.body.userId),
  );
}
