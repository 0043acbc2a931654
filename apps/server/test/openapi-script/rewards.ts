import type { Call } from './calls.ts';

const STAFF = '/api/campaign/management/campaigns';
const CUSTOMER = '/api/campaign/campaigns';
const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * The customer's rewards (issue 34 §2): the administrator publishes a campaign of one task, and a
 * customer on a plan bought with QNT reads the reward state and the open campaigns, opts in, and
 * reads the progress and the history; a trial account is refused (409). The campaign stays
 * (a campaign with a participant cannot go back to draft).
 */
export function rewardCalls(): Call[] {
  const admin = (url: string, body?: unknown) => ({ url, as: 'admin' as const, ...(body ? { body } : {}) });
  const customer = (url: string, authorization: string | undefined) => ({
    url,
    headers: { authorization: authorization! },
  });
  return [
    {
      operation: `POST ${STAFF}`,
      send: () =>
        admin(STAFF, {
          name: 'Recorded rewards',
          visibleName: 'Recorded Rewards',
          startDate: day(2),
          endDate: day(30),
          participants: 1,
        }),
      status: 201,
      keep: (answer: { id: string }, s) => {
        s.rewardCampaign = answer.id;
      },
    },
    {
      operation: `POST ${STAFF}/{campaignId}/tasks`,
      send: (s) =>
        admin(`${STAFF}/${s.rewardCampaign}/tasks`, {
          name: 'Register an application',
          description: 'Any application, testnet or mainnet.',
          activityType: 'APPLICATION_REGISTERED',
          threshold: 1,
          value: '1',
          status: 'PUBLISHED',
        }),
      status: 201,
    },
    {
      operation: `PUT ${STAFF}/{id}/update-status`,
      send: (s) => admin(`${STAFF}/${s.rewardCampaign}/update-status`, { status: 'PUBLISHED' }),
      status: 200,
    },
    {
      operation: `GET ${CUSTOMER}/optins`,
      send: async (s, h) => {
        s.rewards = await h.rewardsCustomer();
        return customer(`${CUSTOMER}/optins`, s.rewards);
      },
      status: 200,
    },
    {
      operation: `GET ${CUSTOMER}/active`,
      send: (s) => customer(`${CUSTOMER}/active`, s.rewards),
      status: 200,
    },
    ...[
      { id: 'rewardCampaign', status: 200 },
      { id: 'rewardCampaign', status: 200 },
      { id: null, status: 404 },
    ].map(({ id, status }): Call => ({
      operation: `POST ${CUSTOMER}/optins/{id}`,
      send: (s) => customer(`${CUSTOMER}/optins/${id ? s[id] : UNKNOWN}`, s.rewards),
      status,
    })),
    {
      operation: `GET ${CUSTOMER}/progress`,
      send: (s) => customer(`${CUSTOMER}/progress`, s.rewards),
      status: 200,
    },
    {
      // A trial account: rewards need a paid plan bought with QNT.
      operation: `GET ${CUSTOMER}/progress`,
      send: (s) => customer(`${CUSTOMER}/progress`, s.leaving),
      status: 409,
    },
    {
      operation: `GET ${CUSTOMER}/completed`,
      send: (s) => customer(`${CUSTOMER}/completed?page=0&size=5`, s.rewards),
      status: 200,
    },
  ];
}
