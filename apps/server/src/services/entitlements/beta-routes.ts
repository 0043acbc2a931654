import { z } from 'zod';
import {
  ZBetaFeature,
  ZBetaFeatureForm,
  ZBetaFeatureList,
  ZBetaInvitation,
  ZBetaParticipant,
  ZBetaParticipantList,
  ZManagedBetaFeature,
  ZManagedBetaFeatureList,
  ZProblem,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import type { App, Deps } from '../../types.ts';
import { ConnectBeta } from './beta.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
/** Spec §2.3: Connect Beta is for every signed-in user (roles 'general'), with the feature connectBeta. */
const customers = { groups: ['general' as const] };
/** Issue 35 §1: the catalogue is an administrator's (management-admin = QUANT_ADMIN). */
const admin = { groups: ['management-admin' as const] };
const BASE = '/management/beta-features';
const ZFeatureParams = z.object({ id: z.uuid({ message: 'The beta feature id must be a UUID.' }) });
const ZInvitationParams = ZFeatureParams.extend({ accountId: z.uuid({ message: 'The account id must be a UUID.' }) });

const NEEDS_BETA = 'Needs the feature connectBeta (404 FEATURE_UNAVAILABLE otherwise).';
const CUSTOMER = `${NEEDS_BETA} A feature the account may not opt in to — unknown, or by invitation without one — answers 404 BETA_FEATURE_NOT_FOUND.`;
const EFFECT =
  'The feature’s key is on for the account (GET /available, the menu, the server’s guards) while it is opted in, the feature is OPEN or the account invited, and it has connectBeta; a staff override switching the key off wins (overriddenOff).';
const FIELDS =
  'Name (unique, letter case aside: 409 BETA_FEATURE_NAME_EXISTS on `name`), description, the feature key it switches on (a switch of spec §6 other than connectBeta) and who may opt in (OPEN: every account with connectBeta; INVITATION: the accounts invited).';

/**
 * Connect Beta (issue 35 §1; packages/shared beta.ts), served under the connect service's prefix
 * (/api/connect/…) by connect's routes: the customers' list and opt-in switch, and the staff
 * catalogue with its participants and invitations. Every write is audited (beta.ts).
 */
export function betaRoutes(app: App, deps: Deps): void {
  const beta = new ConnectBeta(deps.db);
  const actor = (request: Parameters<typeof callerOf>[0]) => ({ ...callerOf(request), requestId: request.id });

  app.get(
    '/beta/features',
    {
      config: { access: customers },
      schema: {
        ...docs,
        summary: 'The beta features of Connect Beta the account may opt in to',
        description: `OPEN features and the INVITATION features the account is invited to, by name, each with whether the account opted in and whether a staff override switched its key off. ${NEEDS_BETA}`,
        response: { 200: ZBetaFeatureList, ...problems },
      },
    },
    async (request) => beta.list(actor(request)),
  );

  app.put(
    '/beta/features/:id/optin',
    {
      config: { access: customers },
      schema: {
        ...docs,
        summary: 'Opt the account in to a beta feature',
        description: `${EFFECT} Opting in again answers the same and changes nothing. ${CUSTOMER} Audited (BETA_OPTED_IN, about the account).`,
        params: ZFeatureParams,
        response: { 200: ZBetaFeature, ...problems },
      },
    },
    async (request) => beta.optIn(actor(request), request.params.id),
  );

  app.delete(
    '/beta/features/:id/optin',
    {
      config: { access: customers },
      schema: {
        ...docs,
        summary: 'Opt the account out of a beta feature',
        description: `The feature’s key turns off for the account at once (unless its plan or a staff override holds it). Opting out again answers the same and changes nothing. ${CUSTOMER} Audited (BETA_OPTED_OUT, about the account).`,
        params: ZFeatureParams,
        response: { 200: ZBetaFeature, ...problems },
      },
    },
    async (request) => beta.optOut(actor(request), request.params.id),
  );

  app.get(
    BASE,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The Connect Beta catalogue (administrators)',
        description: 'Every beta feature by name, with how many accounts opted in and how many are invited.',
        response: { 200: ZManagedBetaFeatureList, ...problems },
      },
    },
    async () => ({ features: await beta.catalogue() }),
  );

  app.post(
    BASE,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Add a beta feature (administrators)',
        description: `${FIELDS} Customers see it at once. Audited (BETA_FEATURE_CREATED).`,
        body: ZBetaFeatureForm,
        response: { 201: ZManagedBetaFeature, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await beta.create(actor(request), request.body)),
  );

  app.put(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Edit a beta feature (administrators)',
        description: `${FIELDS} An OPEN feature made INVITATION invites the accounts that opted in, so they keep it. Opt-ins follow a changed key. An unknown feature answers 404 BETA_FEATURE_NOT_FOUND. Audited with the fields before and after (BETA_FEATURE_UPDATED).`,
        params: ZFeatureParams,
        body: ZBetaFeatureForm,
        response: { 200: ZManagedBetaFeature, ...problems },
      },
    },
    async (request) => beta.update(actor(request), request.params.id, request.body),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Delete a beta feature with its opt-ins and invitations (administrators)',
        description:
          'Its key turns off at once for the accounts that had opted in (unless their plan or an override holds it). An unknown feature answers 404 BETA_FEATURE_NOT_FOUND. Audited with the feature as it was (BETA_FEATURE_DELETED).',
        params: ZFeatureParams,
        response: { 204: z.null().describe('Deleted.'), ...problems },
      },
    },
    async (request, reply) => {
      await beta.remove(actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${BASE}/:id/participants`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Who opted in to a beta feature or was invited (administrators)',
        description:
          'Each account with its organisation, whether it opted in (when, and the email of the user who did) and whether it is invited; latest first. An unknown feature answers 404 BETA_FEATURE_NOT_FOUND.',
        params: ZFeatureParams,
        response: { 200: ZBetaParticipantList, ...problems },
      },
    },
    async (request) => ({ participants: await beta.participants(request.params.id) }),
  );

  app.post(
    `${BASE}/:id/invitations`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Invite an account to a beta feature (administrators)',
        description:
          'The account may then see and opt in to the feature while it is INVITATION (an invitation to an OPEN feature keeps the account in if the feature becomes INVITATION). Inviting again answers the same and changes nothing. An unknown account answers 404 ACCOUNT_NOT_FOUND on `accountId`, an unknown feature 404 BETA_FEATURE_NOT_FOUND. Audited (BETA_INVITED, about the account).',
        params: ZFeatureParams,
        body: ZBetaInvitation,
        response: { 201: ZBetaParticipant, ...problems },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await beta.invite(actor(request), request.params.id, request.body.accountId)),
  );

  app.delete(
    `${BASE}/:id/invitations/:accountId`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Revoke an account’s invitation to a beta feature (administrators)',
        description:
          'Of an INVITATION feature the account’s opt-in goes too: its key turns off for the account. Answers 204 whether or not there was an invitation; audited when there was one (BETA_INVITATION_REVOKED, about the account). An unknown feature answers 404 BETA_FEATURE_NOT_FOUND.',
        params: ZInvitationParams,
        response: { 204: z.null().describe('Revoked.'), ...problems },
      },
    },
    async (request, reply) => {
      await beta.uninvite(actor(request), request.params.id, request.params.accountId);
      return reply.code(204).send(null);
    },
  );
}
