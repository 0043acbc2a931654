import type { TClaim, TOptinsResponse } from '@connect/shared';
import type { TActiveCampaign } from '../api/get-active-campaigns.ts';
import type { TCampaignProgress } from '../api/get-progress.ts';

export { createFetchMock, json, TEST_USER as USER } from '../../../test/fixtures.ts';

/*
 * The rewards contract's answers (packages/shared/src/rewards.ts), as the campaign service sends
 * them: QNT as decimal strings, campaign days as UTC dates.
 */

export const API = '/api/campaign';

export const CAMPAIGN_ID = '0b5e1c2a-3d4f-4a6b-8c9d-0e1f2a3b4c5d';
export const OTHER_CAMPAIGN_ID = '1c6f2d3b-4e5a-4b7c-9d0e-1f2a3b4c5d6e';
export const APP_TASK_ID = '2d7a3e4c-5f6b-4c8d-8e1f-2a3b4c5d6e7f';
export const CALLS_TASK_ID = '3e8b4f5d-6a7c-4d9e-9f2a-3b4c5d6e7f80';

const activity = (type: 'APPLICATION_REGISTERED' | 'GATEWAY_CALLS', displayName: string) =>
  ({ type, displayName, typeName: 'Applications', counted: true }) as const;

export const CAMPAIGN: TActiveCampaign = {
  id: CAMPAIGN_ID,
  name: 'december-2026',
  visibleName: 'December builders',
  qntValue: '3.5',
  taskCount: 2,
  status: 'ACTIVE',
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  participants: 100,
  optedIn: 12,
  createdAt: '2026-11-20T10:00:00.000Z',
  full: false,
  tasks: [
    {
      taskId: APP_TASK_ID,
      externalId: APP_TASK_ID,
      campaignId: CAMPAIGN_ID,
      name: 'Register an application',
      description: 'Register your first application.',
      value: '1.5',
      threshold: 1,
      status: 'PUBLISHED',
      activity: activity('APPLICATION_REGISTERED', 'Register an application'),
    },
    {
      taskId: CALLS_TASK_ID,
      externalId: CALLS_TASK_ID,
      campaignId: CAMPAIGN_ID,
      name: 'Make 20 gateway calls',
      description: '',
      value: '2',
      threshold: 20,
      status: 'PUBLISHED',
      activity: activity('GATEWAY_CALLS', 'Make gateway calls'),
    },
  ],
};

export const OTHER_CAMPAIGN: TActiveCampaign = {
  ...CAMPAIGN,
  id: OTHER_CAMPAIGN_ID,
  name: 'january-2027',
  visibleName: 'January builders',
  status: 'PUBLISHED',
  startDate: '2027-01-01',
  endDate: '2027-01-31',
  tasks: CAMPAIGN.tasks.map((task) => ({ ...task, campaignId: OTHER_CAMPAIGN_ID })),
};

/** A customer who may opt in and never did: nothing earned. */
export const OPTINS: TOptinsResponse = {
  allowedToOptIn: true,
  reason: null,
  optins: [],
  everOptedIn: false,
  balance: '0',
  held: '0',
  minClaim: '1',
};

/** A customer in CAMPAIGN since 2 December, with 5.25 QNT to claim and 1 QNT in a pending claim. */
export const OPTED_IN: TOptinsResponse = {
  allowedToOptIn: false,
  reason: 'OPTED_IN',
  optins: [{ campaignId: CAMPAIGN_ID, optedInAt: '2026-12-02T09:30:00.000Z' }],
  everOptedIn: true,
  balance: '5.25',
  held: '1',
  minClaim: '1',
};

export const progressOf = (count: number, appDone = true): TCampaignProgress => ({
  campaignId: CAMPAIGN_ID,
  earned: appDone ? (count >= 20 ? '3.5' : '1.5') : '0',
  tasks: [
    {
      taskId: APP_TASK_ID,
      count: appDone ? 1 : 0,
      threshold: 1,
      done: appDone,
      doneAt: appDone ? '2026-12-03T11:00:00.000Z' : null,
    },
    {
      taskId: CALLS_TASK_ID,
      count,
      threshold: 20,
      done: count >= 20,
      doneAt: count >= 20 ? '2026-12-04T11:00:00.000Z' : null,
    },
  ],
});

export const CLAIM: TClaim = {
  id: '4f9c5a6e-7b8d-4e0f-8a3b-4c5d6e7f8091',
  trackingCode: 'RWD-7K2P9Q',
  accountId: '6a1d7b3f-2222-4d4c-8e8f-1b2c3d4e5f60',
  address: '0x52908400098527886e0f7030069857d2e4169ee7',
  amountClaimed: '2',
  status: 'PENDING',
  createdAt: '2026-12-05T10:00:00.000Z',
  completedAt: null,
  txHash: null,
  networkName: null,
};

/** A problem as the server sends it. */
export const problem = (code: string, status: number, detail: string) => ({
  type: 'about:blank',
  title: status === 409 ? 'Conflict' : 'Error',
  status,
  detail,
  code,
});
