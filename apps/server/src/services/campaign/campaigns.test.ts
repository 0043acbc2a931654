import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, rewardCampaigns, type CampaignStatus } from '@connect/db';
import {
  ACTIVITY_TYPES,
  ZActivitiesResponse,
  ZCampaignDetail,
  ZManagementCampaignsResponse,
  type TCampaignDetail,
  type TCampaignRequest,
  type TTaskRequest,
} from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { utcDay } from './campaigns.ts';

type Session = { headers: { authorization: string } };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const BASE = '/api/campaign/management';
const DAY_MS = 86_400_000;
/** The UTC day `offset` days from today. */
const day = (offset: number) => utcDay(new Date(Date.now() + offset * DAY_MS));

const campaignBody = (overrides: Partial<TCampaignRequest> = {}): TCampaignRequest => ({
  name: `March ${randomUUID().slice(0, 8)}`,
  visibleName: 'Build on Quant in March',
  startDate: day(3),
  endDate: day(33),
  participants: 100,
  ...overrides,
});
const taskBody = (overrides: Partial<TTaskRequest> = {}): TTaskRequest => ({
  name: 'Register an application',
  description: 'Any application counts.',
  activityType: 'APPLICATION_REGISTERED',
  threshold: 1,
  value: '2',
  status: 'PUBLISHED',
  ...overrides,
});

describe('campaign management (issue 34 §1): staff create, edit, delete and move campaigns', () => {
  let t: TestContext;
  let admin: Session & { sub: string; email: string };
  let sales: Session;
  let user: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    sales = await signInAs(t, { role: 'QUANT_SALES' });
    user = await signInAs(t);
  });
  afterAll(() => t?.close());

  const call = (method: Method, url: string, session: Session | null = admin, body?: unknown) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: session?.headers ?? {},
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  const create = async (body: TCampaignRequest = campaignBody()): Promise<TCampaignDetail> => {
    const res = await call('POST', '/campaigns', admin, body);
    expect(res.statusCode, res.body).toBe(201);
    return ZCampaignDetail.parse(res.json());
  };
  const addTask = async (campaignId: string, body: TTaskRequest = taskBody()) => {
    const res = await call('POST', `/campaigns/${campaignId}/tasks`, admin, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { taskId: string };
  };
  const detail = async (id: string) => ZCampaignDetail.parse((await call('GET', `/campaigns/${id}`)).json());
  /** Puts the campaign in `status` behind the API's back (publishing needs a treasury: campaign-publish.test.ts). */
  const force = (id: string, status: CampaignStatus, optedIn = 0) =>
    t.db.db.update(rewardCampaigns).set({ status, optedIn }).where(eq(rewardCampaigns.id, id));
  const moveTo = (id: string, status: string) => call('PUT', `/campaigns/${id}/update-status`, admin, { status });
  const auditOf = (recordId: string) =>
    t.db.db.select().from(auditLog).where(eq(auditLog.recordId, recordId)).orderBy(asc(auditLog.id));

  it('is for administrators: sales staff and customers are refused (403), no session is 401', async () => {
    const id = randomUUID();
    const calls: [Method, string, unknown?][] = [
      ['GET', '/campaigns'],
      ['POST', '/campaigns', campaignBody()],
      ['GET', `/campaigns/${id}`],
      ['PUT', `/campaigns/${id}`, campaignBody()],
      ['DELETE', `/campaigns/${id}`],
      ['PUT', `/campaigns/${id}/update-status`, { status: 'PUBLISHED' }],
      ['POST', `/campaigns/${id}/tasks`, taskBody()],
      ['PUT', `/campaigns/${id}/tasks/${id}`, taskBody()],
      ['DELETE', `/campaigns/tasks/${id}`],
      ['GET', '/activities'],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(method, url, sales, body)).statusCode, `${method} ${url} as sales`).toBe(403);
      expect((await call(method, url, user, body)).statusCode, `${method} ${url} as a customer`).toBe(403);
      expect((await call(method, url, null, body)).statusCode, `${method} ${url} signed out`).toBe(401);
    }
    expect(await t.db.db.select().from(rewardCampaigns)).toEqual([]);
  });

  it('answers the activity catalogue', async () => {
    const res = await call('GET', '/activities');
    expect(res.statusCode).toBe(200);
    const { activities } = ZActivitiesResponse.parse(res.json());
    expect(activities.map((a) => a.type)).toEqual([...ACTIVITY_TYPES]);
    expect(activities.find((a) => a.type === 'GATEWAY_CALLS')).toEqual({
      type: 'GATEWAY_CALLS',
      displayName: 'Make gateway calls',
      typeName: 'Applications',
      counted: true,
    });
  });

  it('creates a draft with no tasks, audited', async () => {
    const body = campaignBody({ participants: 25 });
    const campaign = await create(body);
    expect(campaign).toMatchObject({
      ...body,
      status: 'DRAFT',
      qntValue: '0',
      taskCount: 0,
      optedIn: 0,
      tasks: [],
    });
    expect(await detail(campaign.id)).toEqual(campaign);
    const [entry] = await auditOf(campaign.id);
    expect(entry).toMatchObject({
      action: 'CAMPAIGN_CREATED',
      actorId: admin.sub,
      actorEmail: admin.email,
      recordType: 'campaign',
      before: null,
      after: { ...body, status: 'DRAFT' },
    });
  });

  it('refuses bad campaigns with the fields that are wrong (400), unknown ids (404)', async () => {
    const res = await call('POST', '/campaigns', admin, {
      name: ' ',
      visibleName: 'x'.repeat(101),
      startDate: '2026-02-30x',
      endDate: day(1),
      participants: 0,
    });
    expect(res.statusCode).toBe(400);
    const names = res.json().invalidParams.map((param: { name: string }) => param.name);
    expect(names).toEqual(expect.arrayContaining(['name', 'visibleName', 'startDate', 'participants']));
    const backwards = await call('POST', '/campaigns', admin, campaignBody({ startDate: day(5), endDate: day(4) }));
    expect(backwards.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      invalidParams: [{ name: 'endDate', reason: 'The end date is on or after the start date.' }],
    });
    const fractional = await call('POST', '/campaigns', admin, { ...campaignBody(), participants: 1.5 });
    expect(fractional.json().invalidParams).toEqual([
      { name: 'participants', reason: 'A whole number of participants.' },
    ]);
    expect((await call('GET', '/campaigns/not-a-uuid')).statusCode).toBe(400);
    const unknown = randomUUID();
    for (const [method, url, body] of [
      ['GET', `/campaigns/${unknown}`],
      ['PUT', `/campaigns/${unknown}`, campaignBody()],
      ['DELETE', `/campaigns/${unknown}`],
      ['PUT', `/campaigns/${unknown}/update-status`, { status: 'PUBLISHED' }],
    ] as [Method, string, unknown?][]) {
      const answer = await call(method, url, admin, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      expect(answer.json().code).toBe('CAMPAIGN_NOT_FOUND');
    }
  });

  it('edits a draft, audited with what changed; anything but a draft is refused', async () => {
    const campaign = await create();
    const edited = campaignBody({ name: campaign.name, participants: 40, endDate: day(40) });
    const res = await call('PUT', `/campaigns/${campaign.id}`, admin, edited);
    expect(res.statusCode, res.body).toBe(200);
    expect(ZCampaignDetail.parse(res.json())).toMatchObject({ participants: 40, endDate: day(40), status: 'DRAFT' });
    // The same again changes nothing, and writes nothing.
    expect((await call('PUT', `/campaigns/${campaign.id}`, admin, edited)).statusCode).toBe(200);
    const entries = await auditOf(campaign.id);
    expect(entries.map((entry) => entry.action)).toEqual(['CAMPAIGN_CREATED', 'CAMPAIGN_UPDATED']);
    expect(entries[1]).toMatchObject({
      before: { participants: 100, endDate: day(33) },
      after: { participants: 40, endDate: day(40) },
    });
    expect(Object.keys(entries[1]!.after!).sort()).toEqual(['endDate', 'participants']);

    for (const status of ['PUBLISHED', 'ACTIVE', 'COMPLETED'] as const) {
      await force(campaign.id, status);
      const refused = await call('PUT', `/campaigns/${campaign.id}`, admin, campaignBody());
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().code).toBe('CAMPAIGN_NOT_DRAFT');
    }
    expect(await detail(campaign.id)).toMatchObject({ participants: 40, name: campaign.name });
  });

  it('deletes a draft and its tasks, audited with them; anything but a draft stays', async () => {
    const campaign = await create();
    const { taskId } = await addTask(campaign.id);
    const res = await call('DELETE', `/campaigns/${campaign.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect((await call('GET', `/campaigns/${campaign.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/campaigns/tasks/${taskId}`)).json().code).toBe('TASK_NOT_FOUND');
    const deleted = (await auditOf(campaign.id)).at(-1)!;
    expect(deleted).toMatchObject({ action: 'CAMPAIGN_DELETED', actorId: admin.sub, after: null });
    expect(deleted.before).toMatchObject({ name: campaign.name, tasks: [{ name: 'Register an application' }] });

    const kept = await create();
    for (const status of ['PUBLISHED', 'ACTIVE', 'COMPLETED'] as const) {
      await force(kept.id, status);
      const refused = await call('DELETE', `/campaigns/${kept.id}`);
      expect(refused.statusCode, status).toBe(409);
      expect(refused.json().code).toBe('CAMPAIGN_NOT_DRAFT');
    }
    expect((await detail(kept.id)).status).toBe('COMPLETED');
  });

  it('lists campaigns by status, sorted and paged; startDate descending by default', async () => {
    const tag = randomUUID().slice(0, 6);
    const made: TCampaignDetail[] = [];
    for (const [offset, name] of [
      [10, 'b'],
      [20, 'a'],
      [15, 'c'],
    ] as const) {
      made.push(
        await create(campaignBody({ name: `${tag}-${name}`, startDate: day(offset), endDate: day(offset + 5) })),
      );
    }
    await force(made[2]!.id, 'COMPLETED');
    const page = async (query: string) => {
      const res = await call('GET', `/campaigns?searchTerm=${tag}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return ZManagementCampaignsResponse.parse(res.json());
    };
    const all = await page('');
    expect(all.content.map((c) => c.name)).toEqual([`${tag}-a`, `${tag}-c`, `${tag}-b`]);
    expect(all).toMatchObject({ totalElements: 3, totalPages: 1, number: 0, size: 5 });
    const open = await page('status=DRAFT&status=PUBLISHED&status=ACTIVE&sort=name:asc');
    expect(open.content.map((c) => c.name)).toEqual([`${tag}-a`, `${tag}-b`]);
    const completed = await page('status=COMPLETED');
    expect(completed.content.map((c) => [c.name, c.status])).toEqual([[`${tag}-c`, 'COMPLETED']]);
    expect((await page('sort=startDate:asc')).content.map((c) => c.name)).toEqual([`${tag}-b`, `${tag}-c`, `${tag}-a`]);
    // Without the search: every campaign of this file, 5 a page.
    const first = ZManagementCampaignsResponse.parse((await call('GET', '/campaigns?page=1&size=5')).json());
    expect(first.number).toBe(1);
    expect(first.totalPages).toBe(Math.ceil(first.totalElements / 5));
    for (const query of ['sort=participants:asc', 'size=7', 'status=OPEN', 'sort=name']) {
      const bad = await call('GET', `/campaigns?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().invalidParams.length).toBeGreaterThan(0);
    }
  });

  it('moves only along the staff transitions; publishing needs a published task and an end date to come', async () => {
    const campaign = await create();
    const refused = await moveTo(campaign.id, 'ACTIVE');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'CAMPAIGN_TRANSITION_REFUSED',
      detail: 'A DRAFT campaign cannot move to ACTIVE: it can move to PUBLISHED.',
    });
    expect((await moveTo(campaign.id, 'DRAFT')).json().code).toBe('CAMPAIGN_TRANSITION_REFUSED');
    expect((await moveTo(campaign.id, 'SOON')).statusCode).toBe(400);

    await addTask(campaign.id, taskBody({ status: 'DRAFT' }));
    expect((await moveTo(campaign.id, 'PUBLISHED')).json().code).toBe('CAMPAIGN_NO_TASKS');
    await addTask(campaign.id);
    expect(await detail(campaign.id)).toMatchObject({ qntValue: '2', taskCount: 1 });
    // Dates of the past: an ended campaign is never published (even on its last day's morrow).
    const ended = campaignBody({ name: campaign.name, startDate: day(-10), endDate: day(-1) });
    expect((await call('PUT', `/campaigns/${campaign.id}`, admin, ended)).statusCode).toBe(200);
    expect((await moveTo(campaign.id, 'PUBLISHED')).json().code).toBe('CAMPAIGN_ENDED');
    // Its last day is today: it may be published, and the treasury is asked — none here.
    const today = campaignBody({ name: campaign.name, startDate: day(-10), endDate: day(0) });
    expect((await call('PUT', `/campaigns/${campaign.id}`, admin, today)).statusCode).toBe(200);
    const noTreasury = await moveTo(campaign.id, 'PUBLISHED');
    expect(noTreasury.statusCode).toBe(503);
    expect(noTreasury.json().code).toBe('TREASURY_UNAVAILABLE');
    expect((await detail(campaign.id)).status).toBe('DRAFT');
    expect((await auditOf(campaign.id)).map((e) => e.action)).not.toContain('CAMPAIGN_STATUS_CHANGED');
  });

  it('goes back to draft before anyone opted in, ends early when running, never leaves COMPLETED', async () => {
    const campaign = await create();
    await force(campaign.id, 'PUBLISHED', 1);
    const joined = await moveTo(campaign.id, 'DRAFT');
    expect(joined.statusCode).toBe(409);
    expect(joined.json().code).toBe('CAMPAIGN_HAS_PARTICIPANTS');
    for (const status of ['ACTIVE', 'COMPLETED', 'PUBLISHED']) {
      expect((await moveTo(campaign.id, status)).json().code, status).toBe('CAMPAIGN_TRANSITION_REFUSED');
    }

    await force(campaign.id, 'PUBLISHED', 0);
    const back = await moveTo(campaign.id, 'DRAFT');
    expect(back.statusCode, back.body).toBe(200);
    expect(ZCampaignDetail.parse(back.json()).status).toBe('DRAFT');

    await force(campaign.id, 'ACTIVE', 3);
    for (const status of ['DRAFT', 'PUBLISHED']) {
      expect((await moveTo(campaign.id, status)).json().code, status).toBe('CAMPAIGN_TRANSITION_REFUSED');
    }
    const ended = await moveTo(campaign.id, 'COMPLETED');
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ZCampaignDetail.parse(ended.json())).toMatchObject({ status: 'COMPLETED', optedIn: 3 });
    for (const status of ['DRAFT', 'PUBLISHED', 'ACTIVE', 'COMPLETED']) {
      expect((await moveTo(campaign.id, status)).json().code, status).toBe('CAMPAIGN_TRANSITION_REFUSED');
    }

    const changes = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, campaign.id), eq(auditLog.action, 'CAMPAIGN_STATUS_CHANGED')))
      .orderBy(asc(auditLog.id));
    expect(changes.map((entry) => [entry.before, entry.after, entry.actorEmail])).toEqual([
      [{ status: 'PUBLISHED' }, { status: 'DRAFT' }, admin.email],
      [{ status: 'ACTIVE' }, { status: 'COMPLETED' }, admin.email],
    ]);
  });
});
