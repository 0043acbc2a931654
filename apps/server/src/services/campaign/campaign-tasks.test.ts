import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, rewardCampaigns, rewardTasks, type CampaignStatus } from '@connect/db';
import { ZCampaignDetail, ZTask, type TTask, type TTaskRequest } from '@connect/shared';
import { createTestApp, signInAs, type TestContext } from '../../../test/helpers.ts';
import { utcDay } from './campaigns.ts';

type Session = { headers: { authorization: string } };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const BASE = '/api/campaign/management/campaigns';
const day = (offset: number) => utcDay(new Date(Date.now() + offset * 86_400_000));

const taskBody = (overrides: Partial<TTaskRequest> = {}): TTaskRequest => ({
  name: 'Make 100 gateway calls',
  description: 'Through any application.',
  activityType: 'GATEWAY_CALLS',
  threshold: 100,
  value: '2.5',
  status: 'DRAFT',
  ...overrides,
});

describe('campaign tasks (issue 34 §1, Task Management): staff make a draft campaign’s tasks', () => {
  let t: TestContext;
  let admin: Session & { sub: string; email: string };
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signInAs(t, { role: 'QUANT_ADMIN' });
  });
  afterAll(() => t?.close());

  const call = (method: Method, url: string, body?: unknown) =>
    t.app.inject({
      method,
      url: `${BASE}${url}`,
      headers: admin.headers,
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  const newCampaign = async () => {
    const res = await call('POST', '', {
      name: `Tasks ${randomUUID().slice(0, 8)}`,
      visibleName: 'Tasks',
      startDate: day(2),
      endDate: day(30),
      participants: 10,
    });
    expect(res.statusCode, res.body).toBe(201);
    return ZCampaignDetail.parse(res.json());
  };
  const addTask = async (campaignId: string, body: TTaskRequest = taskBody()): Promise<TTask> => {
    const res = await call('POST', `/${campaignId}/tasks`, body);
    expect(res.statusCode, res.body).toBe(201);
    return ZTask.parse(res.json());
  };
  const detail = async (id: string) => ZCampaignDetail.parse((await call('GET', `/${id}`)).json());
  const force = (id: string, status: CampaignStatus) =>
    t.db.db.update(rewardCampaigns).set({ status }).where(eq(rewardCampaigns.id, id));
  const auditOf = (recordId: string) =>
    t.db.db.select().from(auditLog).where(eq(auditLog.recordId, recordId)).orderBy(asc(auditLog.id));

  it('adds tasks with their activity; the campaign’s value and count are its published tasks’', async () => {
    const campaign = await newCampaign();
    const calls = await addTask(campaign.id);
    expect(calls).toMatchObject({
      externalId: calls.taskId,
      campaignId: campaign.id,
      name: 'Make 100 gateway calls',
      value: '2.5',
      threshold: 100,
      status: 'DRAFT',
      activity: { type: 'GATEWAY_CALLS', displayName: 'Make gateway calls', typeName: 'Applications', counted: true },
    });
    // A one-off activity is done once, whatever threshold the form sent.
    const verify = await addTask(
      campaign.id,
      taskBody({ name: 'Verify', activityType: 'IDENTITY_VERIFIED', threshold: 5, value: '1', status: 'PUBLISHED' }),
    );
    expect(verify).toMatchObject({ threshold: 1, activity: { typeName: 'Account', counted: false } });
    await addTask(
      campaign.id,
      taskBody({ name: 'Pay', activityType: 'INVOICE_PAID', value: '0.25', status: 'PUBLISHED' }),
    );

    const withTasks = await detail(campaign.id);
    expect(withTasks).toMatchObject({ qntValue: '1.25', taskCount: 2 });
    expect(withTasks.tasks.map((task) => [task.name, task.status])).toEqual([
      ['Make 100 gateway calls', 'DRAFT'],
      ['Verify', 'PUBLISHED'],
      ['Pay', 'PUBLISHED'],
    ]);
    const list = (await call('GET', `?searchTerm=${encodeURIComponent(campaign.name)}`)).json();
    expect(list.content).toMatchObject([{ id: campaign.id, qntValue: '1.25', taskCount: 2 }]);

    const [created] = await auditOf(calls.taskId);
    expect(created).toMatchObject({
      action: 'TASK_CREATED',
      actorId: admin.sub,
      recordType: 'campaign_task',
      before: null,
      after: { campaignId: campaign.id, activityType: 'GATEWAY_CALLS', value: '2.5', threshold: 100, status: 'DRAFT' },
    });
  });

  it('refuses bad tasks with the field that is wrong (400)', async () => {
    const campaign = await newCampaign();
    const cases: [Partial<TTaskRequest> | Record<string, unknown>, string][] = [
      [{ value: '0' }, 'value'],
      [{ value: '-1' }, 'value'],
      [{ value: '1.0000000000000000001' }, 'value'],
      [{ value: 'two' }, 'value'],
      [{ value: '1000000.5' }, 'value'],
      [{ name: '  ' }, 'name'],
      [{ description: 'x'.repeat(501) }, 'description'],
      [{ activityType: 'BRIDGE_CREATED' }, 'activityType'],
      [{ threshold: 0 }, 'threshold'],
      [{ threshold: 2.5 }, 'threshold'],
      [{ status: 'ACTIVE' }, 'status'],
    ];
    for (const [overrides, field] of cases) {
      const res = await call('POST', `/${campaign.id}/tasks`, { ...taskBody(), ...overrides });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().invalidParams.map((p: { name: string }) => p.name)).toContain(field);
    }
    const missing = await call('POST', `/${campaign.id}/tasks`, { name: 'No value', activityType: 'GATEWAY_CALLS' });
    expect(missing.json().invalidParams).toEqual([
      { name: 'value', reason: 'Please enter the amount of QNT to claim.' },
    ]);
    expect((await detail(campaign.id)).tasks).toEqual([]);
    // The most a task is worth, to the wei.
    expect((await addTask(campaign.id, taskBody({ value: '1000000' }))).value).toBe('1000000');
    expect((await addTask(campaign.id, taskBody({ value: '0.000000000000000001' }))).value).toBe(
      '0.000000000000000001',
    );
  });

  it('edits, publishes and converts a task to draft (PUT with its status), audited with what changed', async () => {
    const campaign = await newCampaign();
    const task = await addTask(campaign.id);
    const publish = await call('PUT', `/${campaign.id}/tasks/${task.externalId}`, {
      ...taskBody({ threshold: 250, value: '3' }),
      status: 'PUBLISHED',
    });
    expect(publish.statusCode, publish.body).toBe(200);
    expect(ZTask.parse(publish.json())).toMatchObject({
      taskId: task.taskId,
      threshold: 250,
      value: '3',
      status: 'PUBLISHED',
    });
    expect(await detail(campaign.id)).toMatchObject({ qntValue: '3', taskCount: 1 });

    const draft = await call(
      'PUT',
      `/${campaign.id}/tasks/${task.externalId}`,
      taskBody({ threshold: 250, value: '3' }),
    );
    expect(draft.json().status).toBe('DRAFT');
    expect(await detail(campaign.id)).toMatchObject({ qntValue: '0', taskCount: 0 });

    const entries = await auditOf(task.taskId);
    expect(entries.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['TASK_CREATED', null, expect.any(Object)],
      [
        'TASK_UPDATED',
        { value: '2.5', threshold: 100, status: 'DRAFT' },
        { value: '3', threshold: 250, status: 'PUBLISHED' },
      ],
      ['TASK_UPDATED', { status: 'PUBLISHED' }, { status: 'DRAFT' }],
    ]);
  });

  it('answers 404 for an unknown campaign or task, and for a task of another campaign', async () => {
    const campaign = await newCampaign();
    const other = await newCampaign();
    const task = await addTask(campaign.id);
    const unknown = randomUUID();
    const expectations: [Method, string, string, unknown?][] = [
      ['POST', `/${unknown}/tasks`, 'CAMPAIGN_NOT_FOUND', taskBody()],
      ['PUT', `/${unknown}/tasks/${task.taskId}`, 'CAMPAIGN_NOT_FOUND', taskBody()],
      ['PUT', `/${campaign.id}/tasks/${unknown}`, 'TASK_NOT_FOUND', taskBody()],
      ['PUT', `/${other.id}/tasks/${task.taskId}`, 'TASK_NOT_FOUND', taskBody()],
      ['DELETE', `/tasks/${unknown}`, 'TASK_NOT_FOUND'],
    ];
    for (const [method, url, code, body] of expectations) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code, `${method} ${url}`).toBe(code);
    }
    expect((await call('DELETE', '/tasks/not-a-uuid')).statusCode).toBe(400);
    expect((await detail(other.id)).tasks).toEqual([]);
  });

  it('deletes a task of a draft, audited with the task as it was', async () => {
    const campaign = await newCampaign();
    const task = await addTask(campaign.id, taskBody({ status: 'PUBLISHED' }));
    const res = await call('DELETE', `/tasks/${task.taskId}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await detail(campaign.id)).toMatchObject({ tasks: [], qntValue: '0', taskCount: 0 });
    expect((await call('DELETE', `/tasks/${task.taskId}`)).statusCode).toBe(404);
    const deleted = (await auditOf(task.taskId)).at(-1)!;
    expect(deleted).toMatchObject({
      action: 'TASK_DELETED',
      before: { name: 'Make 100 gateway calls', campaignId: campaign.id, status: 'PUBLISHED' },
      after: null,
    });
  });

  it('leaves the tasks of a campaign that is not a draft as they are (409 CAMPAIGN_NOT_DRAFT)', async () => {
    const campaign = await newCampaign();
    const task = await addTask(campaign.id, taskBody({ status: 'PUBLISHED' }));
    for (const status of ['PUBLISHED', 'ACTIVE', 'COMPLETED'] as const) {
      await force(campaign.id, status);
      for (const [method, url, body] of [
        ['POST', `/${campaign.id}/tasks`, taskBody()],
        ['PUT', `/${campaign.id}/tasks/${task.taskId}`, taskBody({ value: '100' })],
        ['DELETE', `/tasks/${task.taskId}`],
      ] as [Method, string, unknown?][]) {
        const res = await call(method, url, body);
        expect(res.statusCode, `${method} ${url} while ${status}`).toBe(409);
        expect(res.json().code).toBe('CAMPAIGN_NOT_DRAFT');
      }
    }
    const rows = await t.db.db.select().from(rewardTasks).where(eq(rewardTasks.campaignId, campaign.id));
    expect(rows.map((row) => [row.id, row.valueWei, row.status])).toEqual([
      [task.taskId, 2_500_000_000_000_000_000n, 'PUBLISHED'],
    ]);
    expect((await auditOf(task.taskId)).map((entry) => entry.action)).toEqual(['TASK_CREATED']);
  });
});
