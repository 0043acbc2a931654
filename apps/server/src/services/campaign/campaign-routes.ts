import { z } from 'zod';
import {
  ACTIVITIES,
  ACTIVITY_TYPES,
  CAMPAIGN_STAFF_TRANSITIONS,
  ZActivitiesResponse,
  ZCampaignDetail,
  ZCampaignRequest,
  ZCampaignStatusRequest,
  ZManagementCampaignsQuery,
  ZManagementCampaignsResponse,
  ZProblem,
  ZTask,
  ZTaskRequest,
} from '@connect/shared';
import { callerOf } from '../../lib/caller.ts';
import type { App, Deps } from '../../types.ts';
import { CampaignManagement } from './campaigns.ts';
import { treasuryBalanceWei } from './treasury.ts';

const problems = { '4xx': ZProblem };
const docs = { tags: ['campaign'], security: [{ bearerAuth: [] }] };
/** Issue 34 §1: campaigns and tasks are an administrator's (management-admin = QUANT_ADMIN). */
const admin = { groups: ['management-admin' as const] };
const BASE = '/management/campaigns';
const ZCampaignParams = z.object({ id: z.uuid({ message: 'The campaign id must be a UUID.' }) });
const ZCampaignIdParams = z.object({ campaignId: z.uuid({ message: 'The campaign id must be a UUID.' }) });
const ZTaskParams = ZCampaignIdParams.extend({ externalId: z.uuid({ message: 'The task id must be a UUID.' }) });
const ZTaskIdParams = z.object({ taskId: z.uuid({ message: 'The task id must be a UUID.' }) });

const TRANSITIONS = Object.entries(CAMPAIGN_STAFF_TRANSITIONS)
  .filter(([, to]) => to.length)
  .map(([from, to]) => `${from} → ${to.join(', ')}`)
  .join('; ');
const DRAFT_ONLY =
  'Only while the campaign is a DRAFT (409 CAMPAIGN_NOT_DRAFT); an unknown campaign answers 404 CAMPAIGN_NOT_FOUND.';
const TASK_FIELDS =
  'A task names an activity of GET /management/activities, a threshold (how many of it; 1 for an activity that is not counted, whatever is sent), its value in QNT (more than 0, at most 18 decimals) and its status: PUBLISHED tasks count and add up to the campaign’s qntValue, DRAFT tasks do not (publish or convert to draft by sending the status).';

/**
 * Campaign and task management (issue 34 §1; spec §2 Campaign management, Campaign detail (Task
 * Management), §7 Campaigns), under the campaign service's prefix: /api/campaign/management/….
 * Every change is audited (campaigns.ts).
 */
export async function campaignManagementRoutes(app: App, deps: Deps) {
  const campaigns = new CampaignManagement(deps.db, () => treasuryBalanceWei(deps));
  const actor = (request: Parameters<typeof callerOf>[0]) => ({ ...callerOf(request), requestId: request.id });

  app.get(
    BASE,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The campaign list of /campaign-management (administrators)',
        description:
          'Campaigns of the given statuses (status, repeated; all when absent), optionally searched by part of the name or visible name (searchTerm), sorted by name, startDate, endDate, status or createdAt (`field:asc` or `field:desc`; default startDate:desc). Pages are zero-based (page) of 5, 10, 50 or 100 (size, default 5); `cursor` is accepted and ignored (the list is short). qntValue and taskCount count the published tasks only.',
        querystring: ZManagementCampaignsQuery,
        response: { 200: ZManagementCampaignsResponse, ...problems },
      },
    },
    async (request) => campaigns.list(request.query),
  );

  app.post(
    BASE,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Create a campaign, as a draft (administrators)',
        description:
          'Name, visible name (what customers see), start and end dates (UTC days, both included; the end on or after the start) and how many customers may opt in. It has no tasks yet. Audited (CAMPAIGN_CREATED).',
        body: ZCampaignRequest,
        response: { 201: ZCampaignDetail, ...problems },
      },
    },
    async (request, reply) => reply.code(201).send(await campaigns.create(actor(request), request.body)),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'A campaign with every task, drafts included (administrators)',
        description:
          'Each task with its activity from the catalogue. An unknown campaign answers 404 CAMPAIGN_NOT_FOUND.',
        params: ZCampaignParams,
        response: { 200: ZCampaignDetail, ...problems },
      },
    },
    async (request) => campaigns.detail(request.params.id),
  );

  app.put(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Edit a draft campaign (administrators)',
        description: `The same fields as the creation. ${DRAFT_ONLY} Audited with the fields before and after (CAMPAIGN_UPDATED).`,
        params: ZCampaignParams,
        body: ZCampaignRequest,
        response: { 200: ZCampaignDetail, ...problems },
      },
    },
    async (request) => campaigns.update(actor(request), request.params.id, request.body),
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Delete a draft campaign and its tasks (administrators)',
        description: `${DRAFT_ONLY} Audited with the campaign and its tasks as they were (CAMPAIGN_DELETED).`,
        params: ZCampaignParams,
        response: { 204: z.null(), ...problems },
      },
    },
    async (request, reply) => {
      await campaigns.remove(actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    `${BASE}/:id/update-status`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Move a campaign to another status (administrators)',
        description: `Staff may ask for ${TRANSITIONS}; anything else answers 409 CAMPAIGN_TRANSITION_REFUSED. Publishing needs a published task (409 CAMPAIGN_NO_TASKS), an end date not passed (409 CAMPAIGN_ENDED) and the treasury’s QNT on chain to cover the campaign’s budget (qntValue × participants) beside what is already promised — what published and running campaigns may still grant, customers’ unclaimed rewards and unpaid claims (409 TREASURY_SHORT; 503 TREASURY_UNAVAILABLE when payouts are not configured or their network cannot be reached). Back to draft only before anyone opted in (409 CAMPAIGN_HAS_PARTICIPANTS). ACTIVE → COMPLETED ends a campaign early. A published campaign becomes ACTIVE at its start date and COMPLETED after its end date by itself (within a minute). Audited (CAMPAIGN_STATUS_CHANGED; a publication with its budget, the promised QNT and the treasury’s balance).`,
        params: ZCampaignParams,
        body: ZCampaignStatusRequest,
        response: { 200: ZCampaignDetail, ...problems, 503: ZProblem },
      },
    },
    async (request) => campaigns.changeStatus(actor(request), request.params.id, request.body.status),
  );

  app.post(
    `${BASE}/:campaignId/tasks`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Add a task to a draft campaign (administrators)',
        description: `${TASK_FIELDS} ${DRAFT_ONLY} Audited (TASK_CREATED).`,
        params: ZCampaignIdParams,
        body: ZTaskRequest,
        response: { 201: ZTask, ...problems },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await campaigns.createTask(actor(request), request.params.campaignId, request.body)),
  );

  app.put(
    `${BASE}/:campaignId/tasks/:externalId`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Edit, publish or convert to draft a task of a draft campaign (administrators)',
        description: `The task (externalId: its id) is replaced by the body. ${TASK_FIELDS} ${DRAFT_ONLY} A task of another campaign answers 404 TASK_NOT_FOUND. Audited with the fields before and after (TASK_UPDATED).`,
        params: ZTaskParams,
        body: ZTaskRequest,
        response: { 200: ZTask, ...problems },
      },
    },
    async (request) =>
      campaigns.updateTask(actor(request), request.params.campaignId, request.params.externalId, request.body),
  );

  app.delete(
    `${BASE}/tasks/:taskId`,
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'Delete a task of a draft campaign (administrators)',
        description: `Only while its campaign is a DRAFT (409 CAMPAIGN_NOT_DRAFT); an unknown task answers 404 TASK_NOT_FOUND. Audited with the task as it was (TASK_DELETED).`,
        params: ZTaskIdParams,
        response: { 204: z.null(), ...problems },
      },
    },
    async (request, reply) => {
      await campaigns.removeTask(actor(request), request.params.taskId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/management/activities',
    {
      config: { access: admin },
      schema: {
        ...docs,
        summary: 'The activity catalogue tasks are made of (administrators)',
        description:
          'What a task can ask for, each recorded from an event the product emits (never declared by the customer): its type, the name customers see, its group (the task table’s type name) and whether a task names a threshold (counted).',
        response: { 200: ZActivitiesResponse, ...problems },
      },
    },
    async () => ({ activities: ACTIVITY_TYPES.map((type) => ({ type, ...ACTIVITIES[type] })) }),
  );
}
