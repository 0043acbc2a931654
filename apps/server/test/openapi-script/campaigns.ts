import type { Call } from './calls.ts';

const BASE = '/api/campaign/management/campaigns';
const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

const campaign = (participants: number) => ({
  name: 'Recorded campaign',
  visibleName: 'Build on Quant',
  startDate: day(3),
  endDate: day(33),
  participants,
});
const task = (status: 'DRAFT' | 'PUBLISHED', value = '2') => ({
  name: 'Make 20 gateway calls',
  description: 'Through any application.',
  activityType: 'GATEWAY_CALLS',
  threshold: 20,
  value,
  status,
});

/**
 * Campaign and task management (issue 34 §1), as the administrator: the activity catalogue, a
 * campaign created, edited, given tasks, published and put back to draft, then its tasks and the
 * campaign deleted — so the calls after these find no campaign of the recording's.
 */
export function campaignCalls(): Call[] {
  const admin = (url: string, body?: unknown) => ({ url, as: 'admin' as const, ...(body ? { body } : {}) });
  return [
    {
      operation: 'GET /api/campaign/management/activities',
      send: () => admin('/api/campaign/management/activities'),
      status: 200,
    },
    ...[
      { body: campaign(2), status: 201 },
      { body: { ...campaign(0), endDate: day(1) }, status: 400 },
    ].map(({ body, status }): Call => ({
      operation: `POST ${BASE}`,
      send: () => admin(BASE, body),
      status,
      keep: (answer: { id: string }, s) => {
        s.campaign = answer.id;
      },
    })),
    ...[
      { query: 'status=DRAFT&status=PUBLISHED&status=ACTIVE&page=0&size=5&sort=name:asc', status: 200 },
      { query: 'size=7', status: 400 },
    ].map(({ query, status }): Call => ({
      operation: `GET ${BASE}`,
      send: () => admin(`${BASE}?${query}`),
      status,
    })),
    {
      operation: `PUT ${BASE}/{id}`,
      send: (s) => admin(`${BASE}/${s.campaign}`, campaign(3)),
      status: 200,
    },
    ...[
      { body: task('DRAFT'), status: 201, as: 'task' },
      { body: task('DRAFT', '0'), status: 400, as: 'task' },
      { body: task('DRAFT', '0.5'), status: 201, as: 'draftTask' },
    ].map(({ body, status, as }): Call => ({
      operation: `POST ${BASE}/{campaignId}/tasks`,
      send: (s) => admin(`${BASE}/${s.campaign}/tasks`, body),
      status,
      keep: (answer: { taskId: string }, s) => {
        s[as] = answer.taskId;
      },
    })),
    {
      operation: `PUT ${BASE}/{campaignId}/tasks/{externalId}`,
      send: (s) => admin(`${BASE}/${s.campaign}/tasks/${s.task}`, task('PUBLISHED')),
      status: 200,
    },
    ...[
      { status: 'ACTIVE', answer: 409 },
      { status: 'PUBLISHED', answer: 200 },
      { status: 'DRAFT', answer: 200 },
    ].map(({ status, answer }): Call => ({
      operation: `PUT ${BASE}/{id}/update-status`,
      send: (s) => admin(`${BASE}/${s.campaign}/update-status`, { status }),
      status: answer,
    })),
    ...[200, 404].map((status): Call => ({
      operation: `GET ${BASE}/{id}`,
      send: (s) => admin(`${BASE}/${status === 200 ? s.campaign : '00000000-0000-4000-8000-000000000000'}`),
      status,
    })),
    ...[204, 404].map((status): Call => ({
      operation: `DELETE ${BASE}/tasks/{taskId}`,
      send: (s) => admin(`${BASE}/tasks/${s.draftTask}`),
      status,
    })),
    ...[204, 404].map((status): Call => ({
      operation: `DELETE ${BASE}/{id}`,
      send: (s) => admin(`${BASE}/${s.campaign}`),
      status,
    })),
  ];
}
