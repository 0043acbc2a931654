import { z } from 'zod';
import { PLAN_STATUSES, USER_STATUSES } from './constants.ts';
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
