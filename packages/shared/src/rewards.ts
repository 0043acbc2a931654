import { z } from 'zod';
import { FIELD_MESSAGES } from './messages.ts';
import { ZQueryInt, ZQueryPage } from './numbers.ts';
import { QNT_DECIMALS } from './qnt.ts';
import { staffListQuery } from './staff-list.ts';
import { evmAddressProblem } from './tokens/addresses.ts';

/*
 * Rewards (issue 34; spec §2 Rewards, Campaign management, Campaign detail (Task Management), Claim
 * management; §3 Reward state, Claim form, Claim, Campaign, Task; §4; §5; §7 Campaigns and
 * user-facing rewards; §8; §9), under /api/campaign/. QNT amounts travel as decimal QNT strings
 * ("2", "0.5"; at most 18 decimals), stored and moved as wei. docs/decisions/rewards.md.
 */

// ── Constants ───────────────────────────────────────────────────────────────────────────────

/** Spec §4 campaign statuses; the all-statuses tab requests ACTIVE, PUBLISHED, DRAFT. */
export const CAMPAIGN_STATUSES = ['DRAFT', 'PUBLISHED', 'ACTIVE', 'COMPLETED'] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_OPEN_STATUSES = ['ACTIVE', 'PUBLISHED', 'DRAFT'] as const satisfies readonly TCampaignStatus[];

/**
 * The transitions staff may ask for through update-status (the server enforces them; the job
 * makes PUBLISHED → ACTIVE at the start date and PUBLISHED/ACTIVE → COMPLETED after the end date).
 * DRAFT → PUBLISHED needs a published task and the treasury's budget; PUBLISHED → DRAFT only before
 * anyone opted in; ACTIVE → COMPLETED ends a campaign early.
 */
export const CAMPAIGN_STAFF_TRANSITIONS: Readonly<Record<TCampaignStatus, readonly TCampaignStatus[]>> = {
  DRAFT: ['PUBLISHED'],
  PUBLISHED: ['DRAFT'],
  ACTIVE: ['COMPLETED'],
  COMPLETED: [],
};

/** A task is published (counts, and sums into the campaign's QNT value) or a draft. */
export const TASK_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type TTaskStatus = (typeof TASK_STATUSES)[number];

/**
 * The activity catalogue (GET /management/activities): what a task can ask for, each recorded from
 * an event the product emits (never declared by the customer). `counted`: the task names a
 * threshold (e.g. 100 gateway calls); otherwise the activity is done once. Later areas add theirs
 * (bridges: BRIDGE_CREATED, BRIDGE_TRANSFER).
 */
export const ACTIVITY_TYPES = [
  'IDENTITY_VERIFIED',
  'NETWORK_SELECTED',
  'PRIVATE_NETWORK_CONNECTED',
  'APPLICATION_REGISTERED',
  'GATEWAY_CALLS',
  'TESTNET_TOKEN_DEPLOYED',
  'MAINNET_TOKEN_DEPLOYED',
  'INVOICE_PAID',
] as const;
export type TActivityType = (typeof ACTIVITY_TYPES)[number];

/** The activity's group, shown as the task table's "type name" column (spec §3 Task). */
export const ACTIVITY_GROUPS = ['Account', 'Networks', 'Applications', 'Tokens', 'Billing'] as const;

export const ACTIVITIES: Readonly<
  Record<TActivityType, { displayName: string; typeName: (typeof ACTIVITY_GROUPS)[number]; counted: boolean }>
> = {
  IDENTITY_VERIFIED: { displayName: 'Verify your identity', typeName: 'Account', counted: false },
  NETWORK_SELECTED: { displayName: 'Select a network', typeName: 'Networks', counted: false },
  PRIVATE_NETWORK_CONNECTED: { displayName: 'Connect a private network', typeName: 'Networks', counted: false },
  APPLICATION_REGISTERED: { displayName: 'Register an application', typeName: 'Applications', counted: true },
  GATEWAY_CALLS: { displayName: 'Make gateway calls', typeName: 'Applications', counted: true },
  TESTNET_TOKEN_DEPLOYED: { displayName: 'Deploy a testnet token', typeName: 'Tokens', counted: true },
  MAINNET_TOKEN_DEPLOYED: { displayName: 'Deploy a mainnet token', typeName: 'Tokens', counted: true },
  INVOICE_PAID: { displayName: 'Pay an invoice', typeName: 'Billing', counted: false },
};

export const REWARD_LIMITS = {
  /** Spec §9: the claim form's amount. */
  defaultClaimQnt: '2',
  /** The smallest claim unless configured otherwise (REWARD_MIN_CLAIM_QNT). */
  minClaimQnt: '1',
  /** Spec §9: claims are actioned within 5 working days. */
  claimWorkingDays: 5,
  nameMax: 100,
  descriptionMax: 500,
  maxParticipants: 1_000_000,
  maxThreshold: 1_000_000_000,
  /** The most one task is worth. */
  maxTaskQnt: '1000000',
} as const;

/** Spec §8, quoted exactly, and the form's own. */
export const REWARD_MESSAGES = {
  optInFailed: 'An error occurred while trying to opt in. Please try again later.',
  deletionFailed: 'Campaign deletion failed.',
  campaignFull: 'This campaign is full: every place has been taken.',
  addressRequired: 'Please enter the Ethereum address to receive the QNT.',
  addressFormat: 'An Ethereum address starts with 0x and is 42 characters long.',
  addressChecksum: 'This address has mixed case but its checksum is wrong: check it, or type it in lower case.',
  addressZero: 'The zero address cannot receive QNT: enter the address of your wallet.',
  amountRequired: 'Please enter the amount of QNT to claim.',
  amountFormat: 'Enter an amount in QNT, with at most 18 decimals.',
  amountPositive: 'The amount must be more than 0.',
  amountBelowMinimum: (min: string) => `The smallest claim is ${min} QNT.`,
  amountAboveBalance: (balance: string) => `You can claim at most your balance of ${balance} QNT.`,
  cannotUndo: 'A claim cannot be undone.',
  actionedWithin: 'Claims are actioned within 5 working days.',
  rewardsNeedQntPlan: 'Rewards are for customers on a paid plan bought with QNT.',
} as const;

// ── QNT amounts ─────────────────────────────────────────────────────────────────────────────

const QNT_TEXT = /^(\d{1,12})(?:\.(\d{1,18}))?$/;

/** "2.5" → 2500000000000000000n; null when it is not a plain QNT amount with at most 18 decimals. */
export function qntToWei(text: string): bigint | null {
  const match = QNT_TEXT.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  return BigInt(whole!) * 10n ** BigInt(QNT_DECIMALS) + BigInt(fraction.padEnd(QNT_DECIMALS, '0') || '0');
}

/** 2500000000000000000n → "2.5" (exact: no rounding, no grouping). */
export function weiToQnt(wei: bigint | string): string {
  const value = BigInt(wei);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const unit = 10n ** BigInt(QNT_DECIMALS);
  const fraction = (abs % unit).toString().padStart(QNT_DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${abs / unit}${fraction ? `.${fraction}` : ''}`;
}

/** A QNT amount in a form or a body: text with at most 18 decimals, more than 0. */
export const ZQntAmount = z
  .string({ error: REWARD_MESSAGES.amountRequired })
  .trim()
  .min(1, { message: REWARD_MESSAGES.amountRequired })
  .superRefine((text, ctx) => {
    const wei = qntToWei(text);
    if (wei === null) ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.amountFormat });
    else if (wei <= 0n) ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.amountPositive });
  });

/** An address to receive QNT (spec §5): 0x and 42 characters; mixed case only with its checksum. */
export const ZClaimAddress = z
  .string({ error: REWARD_MESSAGES.addressRequired })
  .trim()
  .min(1, { message: REWARD_MESSAGES.addressRequired })
  .superRefine((value, ctx) => {
    const problem = evmAddressProblem(value);
    if (problem === 'format') ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.addressFormat });
    if (problem === 'checksum') ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.addressChecksum });
    // QNT (as most ERC-20s) refuses a transfer to the zero address: such a claim could never be paid.
    if (!problem && /^0x0{40}$/.test(value)) ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.addressZero });
  });

// ── Campaigns and tasks (staff) ─────────────────────────────────────────────────────────────

const ZDate = z.iso
  .date({ message: 'A date is YYYY-MM-DD.' })
  // The database's dates start at year 1; a campaign runs in this era.
  .refine((date) => date >= '2000-01-01' && date <= '2999-12-31', { message: 'A date between 2000 and 2999.' });
const ZQntText = z.string().meta({ description: 'QNT as a decimal string, e.g. "2.5".' });

export const ZActivity = z
  .object({
    type: z.enum(ACTIVITY_TYPES),
    displayName: z.string(),
    typeName: z.enum(ACTIVITY_GROUPS),
    /** The task names a threshold (how many). */
    counted: z.boolean(),
  })
  .meta({ id: 'RewardActivity' });
export type TActivity = z.infer<typeof ZActivity>;
export const ZActivitiesResponse = z.object({ activities: z.array(ZActivity) }).meta({ id: 'RewardActivities' });

export const ZTask = z
  .object({
    taskId: z.uuid(),
    /** The task's address in PUT /management/campaigns/{campaignId}/tasks/{externalId}: the same id. */
    externalId: z.uuid(),
    campaignId: z.uuid(),
    name: z.string(),
    description: z.string(),
    /** QNT earned when the task is done. */
    value: ZQntText,
    /** How many of the activity complete the task (1 for a one-off activity). */
    threshold: z.number().int().min(1),
    status: z.enum(TASK_STATUSES),
    activity: ZActivity,
  })
  .meta({ id: 'RewardTask' });
export type TTask = z.infer<typeof ZTask>;

export const ZCampaign = z
  .object({
    id: z.uuid(),
    name: z.string(),
    visibleName: z.string(),
    /** The most one participant can earn: the sum of its published tasks' values. */
    qntValue: ZQntText,
    taskCount: z.number().int(),
    status: z.enum(CAMPAIGN_STATUSES),
    startDate: ZDate,
    endDate: ZDate,
    /** How many customers may opt in. */
    participants: z.number().int(),
    optedIn: z.number().int(),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'RewardCampaign' });
export type TCampaign = z.infer<typeof ZCampaign>;

export const ZCampaignDetail = ZCampaign.extend({ tasks: z.array(ZTask) }).meta({ id: 'RewardCampaignDetail' });
export type TCampaignDetail = z.infer<typeof ZCampaignDetail>;

const ZCampaignStatus = z.enum(CAMPAIGN_STATUSES);
export const CAMPAIGN_SORT_FIELDS = ['name', 'startDate', 'endDate', 'status', 'createdAt'] as const;
/** GET /management/campaigns: page, size, sort, status (repeated). Default sort startDate descending. */
export const ZManagementCampaignsQuery = staffListQuery(CAMPAIGN_SORT_FIELDS).extend({
  status: z
    .union([ZCampaignStatus, z.array(ZCampaignStatus).max(4)])
    .optional()
    .transform((status) => (status === undefined ? undefined : [...new Set([status].flat())].sort())),
});
export const ZManagementCampaignsResponse = z
  .object({
    content: z.array(ZCampaign),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  })
  .meta({ id: 'RewardCampaignPage' });
export type TManagementCampaignsResponse = z.infer<typeof ZManagementCampaignsResponse>;

const ZName = z
  .string({ error: FIELD_MESSAGES.required })
  .trim()
  .min(1, { message: FIELD_MESSAGES.required })
  .max(REWARD_LIMITS.nameMax, { message: `At most ${REWARD_LIMITS.nameMax} characters.` });

/** POST /management/campaigns and PUT /management/campaigns/{id}. */
export const ZCampaignRequest = z
  .object({
    name: ZName,
    visibleName: ZName,
    startDate: ZDate,
    endDate: ZDate,
    participants: z
      .number({ error: 'Enter how many customers may take part.' })
      .int({ message: 'A whole number of participants.' })
      .min(1, { message: 'At least one participant.' })
      .max(REWARD_LIMITS.maxParticipants, { message: 'At most 1,000,000 participants.' }),
  })
  .refine((c) => c.endDate >= c.startDate, {
    path: ['endDate'],
    message: 'The end date is on or after the start date.',
  })
  .meta({ id: 'RewardCampaignRequest' });
export type TCampaignRequest = z.infer<typeof ZCampaignRequest>;

/** PUT /management/campaigns/{id}/update-status. */
export const ZCampaignStatusRequest = z.object({ status: ZCampaignStatus }).meta({ id: 'RewardCampaignStatusRequest' });

/** POST /management/campaigns/{campaignId}/tasks and PUT …/tasks/{externalId}. */
export const ZTaskRequest = z
  .object({
    name: ZName,
    description: z
      .string()
      .trim()
      .max(REWARD_LIMITS.descriptionMax, { message: `At most ${REWARD_LIMITS.descriptionMax} characters.` })
      .default(''),
    activityType: z.enum(ACTIVITY_TYPES, { error: 'Choose an activity.' }),
    /** Ignored (1) for an activity that is not counted. */
    threshold: z
      .number()
      .int({ message: 'A whole number.' })
      .min(1, { message: 'At least 1.' })
      .max(REWARD_LIMITS.maxThreshold)
      .default(1),
    value: ZQntAmount.refine((v) => (qntToWei(v) ?? 0n) <= qntToWei(REWARD_LIMITS.maxTaskQnt)!, {
      message: `At most ${REWARD_LIMITS.maxTaskQnt} QNT.`,
    }),
    status: z.enum(TASK_STATUSES).default('DRAFT'),
  })
  .meta({ id: 'RewardTaskRequest' });
export type TTaskRequest = z.input<typeof ZTaskRequest>;

// ── Customers ───────────────────────────────────────────────────────────────────────────────

/** A customer's progress on one task of a campaign they opted in to. */
export const ZTaskProgress = z
  .object({
    taskId: z.uuid(),
    count: z.number().int(),
    threshold: z.number().int(),
    done: z.boolean(),
    doneAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'RewardTaskProgress' });

/** GET /campaigns/active: the campaigns open to opt in or running, each with its published tasks. */
export const ZActiveCampaignsResponse = z
  .object({
    campaigns: z.array(ZCampaignDetail.extend({ full: z.boolean(), optedIn: z.number().int() })),
  })
  .meta({ id: 'RewardActiveCampaigns' });
export type TActiveCampaignsResponse = z.infer<typeof ZActiveCampaignsResponse>;

/**
 * GET /campaigns/optins: the campaigns the account opted in to (userActiveCampaigns), whether it
 * may opt in to another (allowedToOptIn), and its REWARD_QNT from the ledger.
 */
export const ZOptinsResponse = z
  .object({
    allowedToOptIn: z.boolean(),
    /** Why not, when not: no QNT plan, opted in already, every open campaign full, none open. */
    reason: z.enum(['PLAN', 'OPTED_IN', 'FULL', 'NONE']).nullable(),
    optins: z.array(z.object({ campaignId: z.uuid(), optedInAt: z.iso.datetime({ offset: true }) })),
    /** Everything the account has ever opted in to (the history is theirs once this is true). */
    everOptedIn: z.boolean(),
    balance: ZQntText,
    /** QNT of claims not yet paid (taken from the balance when claimed). */
    held: ZQntText,
    minClaim: ZQntText,
  })
  .meta({ id: 'RewardOptins' });
export type TOptinsResponse = z.infer<typeof ZOptinsResponse>;

/** POST /campaigns/optins/{id}: the status decides allowedToOptIn (spec §2). */
export const OPTIN_STATUSES = ['OPTED_IN', 'ALREADY_OPTED_IN', 'FULL'] as const;
export const ZOptinResponse = z
  .object({ status: z.enum(OPTIN_STATUSES), allowedToOptIn: z.boolean() })
  .meta({ id: 'RewardOptin' });
export type TOptinResponse = z.infer<typeof ZOptinResponse>;

/** GET /campaigns/progress. */
export const ZProgressResponse = z
  .object({
    campaigns: z.array(z.object({ campaignId: z.uuid(), earned: ZQntText, tasks: z.array(ZTaskProgress) })),
  })
  .meta({ id: 'RewardProgress' });
export type TProgressResponse = z.infer<typeof ZProgressResponse>;

/** GET /campaigns/completed and GET /reward/transactions: page and size (zero-based page). */
export const ZRewardPageQuery = z.object({
  page: ZQueryPage.optional().transform((page) => page ?? 0),
  size: ZQueryInt({ min: 1, max: 100 }).default(5),
});

const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      content: z.array(item),
      totalElements: z.number().int(),
      totalPages: z.number().int(),
      number: z.number().int(),
      size: z.number().int(),
    })
    .meta({ id });

/** A campaign the account took part in, ended. */
export const ZCampaignHistoryItem = z.object({
  campaignId: z.uuid(),
  visibleName: z.string(),
  startDate: ZDate,
  endDate: ZDate,
  qntValue: ZQntText,
  earned: ZQntText,
  tasksDone: z.number().int(),
  taskCount: z.number().int(),
});
export const ZCampaignHistoryResponse = pageOf(ZCampaignHistoryItem, 'RewardCampaignHistory');
export type TCampaignHistoryResponse = z.infer<typeof ZCampaignHistoryResponse>;

export const CLAIM_STATUSES = ['PENDING', 'PAYING', 'COMPLETED', 'REJECTED'] as const;
export type TClaimStatus = (typeof CLAIM_STATUSES)[number];
/** The claim list's tabs (spec §2): pending holds PENDING and PAYING; completed COMPLETED and REJECTED. */
export const CLAIM_TABS = { pending: ['PENDING', 'PAYING'], completed: ['COMPLETED', 'REJECTED'] } as const;

/** A step of a claim's history (the details dialog's transaction history). */
export const ZClaimEvent = z.object({
  status: z.enum([...CLAIM_STATUSES, 'SENT', 'RESENT', 'REVERTED'] as const),
  at: z.iso.datetime({ offset: true }),
  txHash: z.string().nullable(),
  note: z.string().nullable(),
});

export const ZClaim = z
  .object({
    id: z.uuid(),
    trackingCode: z.string(),
    accountId: z.uuid(),
    address: z.string(),
    amountClaimed: ZQntText,
    status: z.enum(CLAIM_STATUSES),
    createdAt: z.iso.datetime({ offset: true }),
    completedAt: z.iso.datetime({ offset: true }).nullable(),
    /** The payout's transaction, once sent. */
    txHash: z.string().nullable(),
    networkName: z.string().nullable(),
  })
  .meta({ id: 'RewardClaim' });
export type TClaim = z.infer<typeof ZClaim>;
export const ZClaimDetail = ZClaim.extend({ history: z.array(ZClaimEvent) }).meta({ id: 'RewardClaimDetail' });
export type TClaimDetail = z.infer<typeof ZClaimDetail>;

/** GET /reward/transactions: the account's claims, newest first. */
export const ZClaimHistoryResponse = pageOf(ZClaim, 'RewardClaimHistory');
export type TClaimHistoryResponse = z.infer<typeof ZClaimHistoryResponse>;

/** POST /reward (spec §7: address and qnt). */
export const ZClaimRequest = z
  .object({
    address: ZClaimAddress,
    qnt: ZQntAmount,
    /** One per claim form: the same request sent again (a lost answer) answers the same claim. */
    idempotencyKey: z.uuid().optional(),
  })
  .meta({ id: 'RewardClaimRequest' });
export type TClaimRequest = z.infer<typeof ZClaimRequest>;

// ── Claims (staff) ──────────────────────────────────────────────────────────────────────────

export const CLAIM_SORT_FIELDS = ['accountId', 'createdAt'] as const;
export type TClaimSortField = (typeof CLAIM_SORT_FIELDS)[number];

/** The claim list's sort on the wire (spec §4): `field,order`, e.g. `createdAt,desc`; '' is none. */
export function formatClaimSort(sort: { field: TClaimSortField; direction: 'asc' | 'desc' } | null): string {
  return sort ? `${sort.field},${sort.direction}` : '';
}

/** GET /management/reward/transactions: status (repeated), page, accountId, size, sort (field,order). */
export const ZManagementClaimsQuery = z.object({
  status: z
    .union([z.enum(CLAIM_STATUSES), z.array(z.enum(CLAIM_STATUSES)).max(4)])
    .optional()
    .transform((status) => (status === undefined ? undefined : [...new Set([status].flat())].sort())),
  page: ZQueryPage.optional().transform((page) => page ?? 0),
  size: ZQueryInt({ min: 1, max: 100 }).default(5),
  accountId: z
    .string()
    .trim()
    .optional()
    .transform((id) => id || undefined)
    .pipe(z.uuid({ message: 'The account id must be a UUID.' }).optional()),
  sort: z
    .string()
    .max(40)
    .optional()
    .transform((sort, ctx) => {
      if (!sort) return null;
      const [field, order, ...rest] = sort.split(',');
      if (
        rest.length ||
        !(CLAIM_SORT_FIELDS as readonly string[]).includes(field ?? '') ||
        (order !== 'asc' && order !== 'desc')
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `The sort is field,asc or field,desc, the field one of ${CLAIM_SORT_FIELDS.join(', ')}.`,
        });
        return z.NEVER;
      }
      return { field: field as TClaimSortField, direction: order };
    }),
});
export const ZManagementClaimsResponse = pageOf(ZClaim, 'RewardClaimPage');
export type TManagementClaimsResponse = z.infer<typeof ZManagementClaimsResponse>;

/** POST /management/reward/claims/{id}/reject. */
export const ZRejectClaimRequest = z
  .object({ reason: z.string().trim().min(1, { message: FIELD_MESSAGES.required }).max(300) })
  .meta({ id: 'RewardRejectClaimRequest' });

/** The treasury the claims are paid from (staff). */
export const ZTreasury = z
  .object({
    address: z.string(),
    networkName: z.string(),
    /** QNT the treasury holds on chain, and what published campaigns and unpaid rewards still promise. */
    balance: ZQntText,
    promised: ZQntText,
  })
  .meta({ id: 'RewardTreasury' });
export type TTreasury = z.infer<typeof ZTreasury>;
