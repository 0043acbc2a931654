import {
  ACTIVITIES,
  ACTIVITY_TYPES,
  ZActivitiesResponse,
  ZCampaign,
  ZCampaignDetail,
  ZClaim,
  ZClaimDetail,
  ZManagementCampaignsResponse,
  ZManagementClaimsResponse,
  ZTask,
  ZTreasury,
  type TCampaign,
  type TCampaignDetail,
  type TClaim,
  type TClaimDetail,
  type TManagementCampaignsResponse,
  type TManagementClaimsResponse,
  type TTask,
} from '@connect/shared';

/*
 * The rewards screens' test data as the campaign service answers it (issue 34), parsed by the
 * shared schemas: a fixture the server could not send fails here, not in a page.
 */

export const CAMPAIGNS_URL = '/api/campaign/management/campaigns';
export const CLAIMS_URL = '/api/campaign/management/reward/transactions';
export const TREASURY_URL = '/api/campaign/management/reward/treasury';
export const ACTIVITIES_URL = '/api/campaign/management/activities';

export const DRAFT_CAMPAIGN: TCampaign = ZCampaign.parse({
  id: '7e000000-0000-4000-8000-000000000001',
  name: 'December builders',
  visibleName: 'Build in December',
  qntValue: '7.5',
  taskCount: 2,
  status: 'DRAFT',
  startDate: '2026-12-01',
  endDate: '2026-12-31',
  participants: 100,
  optedIn: 0,
  createdAt: '2026-11-20T10:00:00.000Z',
});

export const ACTIVE_CAMPAIGN: TCampaign = ZCampaign.parse({
  ...DRAFT_CAMPAIGN,
  id: '7e000000-0000-4000-8000-000000000002',
  name: 'November builders',
  visibleName: 'Build in November',
  qntValue: '1234.5',
  status: 'ACTIVE',
  startDate: '2026-11-01',
  endDate: '2026-11-30',
  participants: 2000,
  optedIn: 1250,
});

export const PUBLISHED_CAMPAIGN: TCampaign = ZCampaign.parse({
  ...DRAFT_CAMPAIGN,
  id: '7e000000-0000-4000-8000-000000000003',
  name: 'January builders',
  visibleName: 'Build in January',
  status: 'PUBLISHED',
  startDate: '2027-01-01',
  endDate: '2027-01-31',
});

export const COMPLETED_CAMPAIGN: TCampaign = ZCampaign.parse({
  ...DRAFT_CAMPAIGN,
  id: '7e000000-0000-4000-8000-000000000004',
  name: 'October builders',
  visibleName: 'Build in October',
  status: 'COMPLETED',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  optedIn: 100,
});

export function campaignsAnswer(
  rows: TCampaign[],
  { page = 0, size = 5, totalElements = rows.length }: { page?: number; size?: number; totalElements?: number } = {},
): TManagementCampaignsResponse {
  return ZManagementCampaignsResponse.parse({
    content: rows,
    totalElements,
    totalPages: Math.ceil(totalElements / size),
    number: page,
    size,
  });
}

export const ACTIVITY_LIST = ZActivitiesResponse.parse({
  activities: ACTIVITY_TYPES.map((type) => ({ type, ...ACTIVITIES[type] })),
});

export const APP_TASK: TTask = ZTask.parse({
  taskId: '7f000000-0000-4000-8000-000000000001',
  externalId: '7f000000-0000-4000-8000-000000000001',
  campaignId: DRAFT_CAMPAIGN.id,
  name: 'Register an app',
  description: 'Register your first application.',
  value: '2.5',
  threshold: 1,
  status: 'PUBLISHED',
  activity: { type: 'APPLICATION_REGISTERED', ...ACTIVITIES.APPLICATION_REGISTERED },
});

export const CALLS_TASK: TTask = ZTask.parse({
  ...APP_TASK,
  taskId: '7f000000-0000-4000-8000-000000000002',
  externalId: '7f000000-0000-4000-8000-000000000002',
  name: 'Make 20 calls',
  description: '',
  value: '5',
  threshold: 20,
  status: 'DRAFT',
  activity: { type: 'GATEWAY_CALLS', ...ACTIVITIES.GATEWAY_CALLS },
});

export const campaignDetail = (campaign: TCampaign, tasks: TTask[] = [APP_TASK, CALLS_TASK]): TCampaignDetail =>
  ZCampaignDetail.parse({ ...campaign, taskCount: tasks.length, tasks });

export const TREASURY = ZTreasury.parse({
  address: '0x00000000000000000000000000000000000fee01',
  networkName: 'Local QNT chain',
  balance: '10000',
  promised: '750',
});

export const PENDING_CLAIM: TClaim = ZClaim.parse({
  id: '7a100000-0000-4000-8000-000000000001',
  trackingCode: 'CLM-7Q2K9X',
  accountId: '7b000000-0000-4000-8000-0000000000aa',
  address: '0x1111111111111111111111111111111111111111',
  amountClaimed: '2',
  status: 'PENDING',
  createdAt: '2026-11-21T09:30:00.000Z',
  completedAt: null,
  txHash: null,
  networkName: null,
});

export const PAID_CLAIM: TClaim = ZClaim.parse({
  ...PENDING_CLAIM,
  id: '7a100000-0000-4000-8000-000000000002',
  trackingCode: 'CLM-PAID01',
  status: 'COMPLETED',
  completedAt: '2026-11-22T10:00:00.000Z',
  txHash: '0xabababababababababababababababababababababababababababababababab',
  networkName: 'Local QNT chain',
});

export const claimDetail = (claim: TClaim): TClaimDetail =>
  ZClaimDetail.parse({
    ...claim,
    history: [
      { status: 'PENDING', at: claim.createdAt, txHash: null, note: null },
      ...(claim.txHash
        ? [
            { status: 'SENT', at: '2026-11-22T09:59:00.000Z', txHash: claim.txHash, note: null },
            { status: 'COMPLETED', at: claim.completedAt, txHash: claim.txHash, note: null },
          ]
        : []),
    ],
  });

export function claimsAnswer(
  rows: TClaim[],
  { page = 0, size = 5, totalElements = rows.length }: { page?: number; size?: number; totalElements?: number } = {},
): TManagementClaimsResponse {
  return ZManagementClaimsResponse.parse({
    content: rows,
    totalElements,
    totalPages: Math.ceil(totalElements / size),
    number: page,
    size,
  });
}

/** A refusal as the server sends it (problem details with its code). */
export const problemBody = (code: string, detail: string, status = 409) => ({
  type: 'about:blank',
  title: 'Conflict',
  status,
  code,
  detail,
});
