import { z } from 'zod';
import { FEATURE_SWITCHES, PLAN_ALLOWANCES, PLAN_STATUSES, USER_STATUSES } from './constants.ts';
import { ZInt32Amount } from './numbers.ts';
import { staffListQuery, ZStaffListPaging } from './staff-list.ts';

/*
 * Account management (issue 33 §1; spec §2 Account management, §3 Account row, §4 account status
 * filter, §5 account search), under /api/connect/management/, for management-sales.
 */

/** The sortable columns; the default is createdAt descending (spec §9). */
export const MANAGEMENT_ACCOUNT_SORT_FIELDS = ['organisationName', 'currentPlan', 'createdAt'] as const;
export type TManagementAccountSortField = (typeof MANAGEMENT_ACCOUNT_SORT_FIELDS)[number];

/**
 * An account's status in the list: REMOVED when staff removed its last user, PENDING while its
 * only users are invited and have not signed in yet, ACTIVE otherwise.
 */
export const ACCOUNT_LIST_STATUSES = USER_STATUSES;
export type TAccountListStatus = (typeof ACCOUNT_LIST_STATUSES)[number];
/** The status filter of spec §4: All statuses (no filter), ACTIVE, REMOVED. */
export const ACCOUNT_STATUS_FILTERS = ['ACTIVE', 'REMOVED'] as const;

const ZAccountStatus = z.enum(ACCOUNT_LIST_STATUSES);

/** `status` may repeat (`status=ACTIVE&status=PENDING`, spec §7: arrays as repeated keys); absent is all. */
export const ZManagementAccountsQuery = staffListQuery(MANAGEMENT_ACCOUNT_SORT_FIELDS).extend({
  status: z
    .union([ZAccountStatus, z.array(ZAccountStatus).max(3)])
    .optional()
    .transform((status) => (status === undefined ? undefined : [...new Set([status].flat())].sort())),
});
export type TManagementAccountsQuery = {
  page?: number;
  size?: number;
  sort?: string;
  searchTerm?: string;
  cursor?: string;
  status?: TAccountListStatus | TAccountListStatus[];
};

/** A row of the account list (spec §3 Account row). */
export const ZManagementAccount = z
  .object({
    accountId: z.uuid(),
    organisationName: z.string().nullable(),
    status: ZAccountStatus,
    /** The account's first user: who signed up or was invited first. */
    accountOwner: z.object({ userId: z.uuid(), email: z.string(), name: z.string().nullable() }).nullable(),
    /** The plan's name (the tier customers bought). */
    currentPlan: z.string().nullable(),
    planStatus: z.enum(PLAN_STATUSES).nullable(),
    /** When the trial or the paid period ends. */
    planExpiryDate: z.iso.datetime({ offset: true }).nullable(),
    /** The latest sign-in of any of the account's users. */
    lastLogin: z.iso.datetime({ offset: true }).nullable(),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'ManagementAccount' });
export type TManagementAccount = z.infer<typeof ZManagementAccount>;

export const ZManagementAccountsResponse = ZStaffListPaging.extend({
  accountList: z.array(ZManagementAccount),
}).meta({ id: 'ManagementAccountsResponse' });
export type TManagementAccountsResponse = z.infer<typeof ZManagementAccountsResponse>;

// ── Feature and allowance overrides (issue 33 §1) ─────────────────────────────────────────────

/** What staff may override for one account: a switch, or a plan allowance. */
export const OVERRIDE_KEYS = [...FEATURE_SWITCHES, ...PLAN_ALLOWANCES] as const;
export type TOverrideKey = (typeof OVERRIDE_KEYS)[number];

/** A switch on or off, or an allowance's number (a whole number from 0; 0 blockchains means all). */
export const ZOverrideValue = z.union([
  z.object({ enabled: z.boolean() }).strict(),
  z.object({ amount: ZInt32Amount }).strict(),
]);
export type TOverrideValue = z.infer<typeof ZOverrideValue>;

export const ZAccountOverride = z
  .object({
    key: z.enum(OVERRIDE_KEYS),
    value: ZOverrideValue,
    /** The staff member who set it (their user id). */
    setBy: z.uuid().nullable(),
    setAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'AccountOverride' });
export type TAccountOverride = z.infer<typeof ZAccountOverride>;

/**
 * GET /management/accounts/{accountId}/overrides: the overrides that win over the account's plan
 * until staff clear them, and the allowances in force (the plan's, or the override's number);
 * `allowances` is null for an account without a plan.
 */
export const ZAccountOverridesResponse = z
  .object({
    overrides: z.array(ZAccountOverride),
    allowances: z.record(z.enum(PLAN_ALLOWANCES), z.number().int()).nullable(),
  })
  .meta({ id: 'AccountOverridesResponse' });
export type TAccountOverridesResponse = z.infer<typeof ZAccountOverridesResponse>;

/** PUT /management/accounts/{accountId}/overrides/{key}: a switch takes `enabled`, an allowance `amount`. */
export const ZSetOverrideRequest = ZOverrideValue.meta({ id: 'SetOverrideRequest' });

// ── Trial extension (issue 33 §1; spec §4 "A trial can be extended") ──────────────────────────

/** POST /api/account-plan/management/accounts/{accountId}/trial-extension */
export const ZTrialExtensionRequest = z
  .object({
    days: z.number().int().min(1, { message: 'At least 1 day.' }).max(365, { message: 'At most 365 days.' }),
    reason: z
      .string({ error: 'A reason is required.' })
      .trim()
      .min(1, { message: 'A reason is required.' })
      .max(500, { message: 'Must be at most 500 characters.' }),
  })
  .meta({ id: 'TrialExtensionRequest' });
export type TTrialExtensionRequest = z.input<typeof ZTrialExtensionRequest>;

export const ZTrialExtension = z
  .object({
    accountId: z.uuid(),
    planStatus: z.enum(PLAN_STATUSES),
    /** The trial's new end. */
    trialEndsAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'TrialExtension' });
export type TTrialExtension = z.infer<typeof ZTrialExtension>;
