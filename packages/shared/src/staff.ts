import { z } from 'zod';
import { isStaffRole, KYC_STATUSES, ROLES, USER_STATUSES } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { staffListQuery, ZStaffListPaging, ZStaffSearchTerm } from './staff-list.ts';

/*
 * User management and the audit log (issue 32 §1, §3), under /api/connect/management/.
 */

/** The tabs of /user-management: held in lower case (the URL), sent in upper case (spec §4). */
export const USER_TABS = ['active', 'pending', 'removed'] as const;
export type TUserTab = (typeof USER_TABS)[number];

// ── GET /management/users ─────────────────────────────────────────────────────────────────────

/** The sortable columns; the default is statusChangedAt descending (spec §9). */
export const MANAGEMENT_USER_SORT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'role',
  'organisationName',
  'statusChangedAt',
] as const;
export type TManagementUserSortField = (typeof MANAGEMENT_USER_SORT_FIELDS)[number];

export const ZManagementUsersQuery = staffListQuery(MANAGEMENT_USER_SORT_FIELDS).extend({
  status: z.enum(USER_STATUSES).default('ACTIVE'),
});
export type TManagementUsersQuery = z.input<typeof ZManagementUsersQuery>;

/**
 * MFA as user management shows it (spec §8): ACTIVE "MFA is active", SETUP "MFA is set up",
 * DISABLED "MFA is disabled", FIRST_LOGIN "MFA will be active on first login" (an invited staff
 * user, who must set it up at their first sign-in).
 */
export const MANAGED_MFA_STATUSES = ['ACTIVE', 'SETUP', 'DISABLED', 'FIRST_LOGIN'] as const;
export const MANAGED_MFA_TEXTS: Record<(typeof MANAGED_MFA_STATUSES)[number], string> = {
  ACTIVE: 'MFA is active',
  SETUP: 'MFA is set up',
  DISABLED: 'MFA is disabled',
  FIRST_LOGIN: 'MFA will be active on first login',
};

/** A row of the user list (spec §3 User row) with the row details. */
export const ZManagementUser = z
  .object({
    userId: z.uuid(),
    accountId: z.uuid(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(USER_STATUSES),
    organisationName: z.string().nullable(),
    statusChangedAt: z.iso.datetime({ offset: true }),
    /** Who invited the user (a staff email), 'system' for the seeded administrator, null for a sign-up. */
    addedBy: z.string().nullable(),
    /** Who removed the user (a staff email, or 'system' for the 90-day purge). */
    removedBy: z.string().nullable(),
    onfidoApplicantStatus: z.enum(KYC_STATUSES),
    firstLoginAt: z.iso.datetime({ offset: true }).nullable(),
    lastLoginAt: z.iso.datetime({ offset: true }).nullable(),
    mfaStatus: z.enum(MANAGED_MFA_STATUSES),
  })
  .meta({ id: 'ManagementUser' });
export type TManagementUser = z.infer<typeof ZManagementUser>;

export const ZUserStatusCount = z.object({ userStatus: z.enum(USER_STATUSES), statusCount: z.number().int() });

export const ZManagementUsersResponse = ZStaffListPaging.extend({
  userList: z.array(ZManagementUser),
  /** Every tab's count, exact (kept with each status change, so it costs no scan). */
  statusesList: z.array(ZUserStatusCount),
}).meta({ id: 'ManagementUsersResponse' });
export type TManagementUsersResponse = z.infer<typeof ZManagementUsersResponse>;

// ── Invite, edit, remove, reset MFA ───────────────────────────────────────────────────────────

const name = z
  .string({ error: FIELD_MESSAGES.required })
  .trim()
  .min(1, { message: FIELD_MESSAGES.required })
  .max(100, { message: FIELD_MESSAGES.tooLong(100) });
const organisationName = z
  .string()
  .trim()
  .max(200, { message: FIELD_MESSAGES.tooLong(200) })
  .optional()
  .transform((value) => value || undefined);

/**
 * POST /management/user/invite. A staff role joins the staff organisation; a customer role opens a
 * new account named `organisationName`. The invitee gets an email with a temporary password.
 */
export const ZInviteUserRequest = z
  .object({
    email: z.email({ message: FIELD_MESSAGES.email }).trim().toLowerCase().max(254),
    firstName: name,
    lastName: name,
    role: z.enum(ROLES, { error: FIELD_MESSAGES.required }),
    organisationName,
  })
  .refine((value) => isStaffRole(value.role) || Boolean(value.organisationName), {
    path: ['organisationName'],
    message: FIELD_MESSAGES.required,
    // Checked as soon as a role is chosen, alongside the other fields' errors.
    when: ({ issues }) => !issues.some((issue) => issue.path?.[0] === 'role' || issue.path?.[0] === 'organisationName'),
  })
  .meta({ id: 'InviteUserRequest' });
export type TInviteUserRequest = z.input<typeof ZInviteUserRequest>;

/** PUT /management/user: name, role (within staff or within customer roles) and organisation. */
export const ZUpdateManagedUserRequest = z
  .object({
    userId: z.uuid(),
    firstName: name,
    lastName: name,
    role: z.enum(ROLES, { error: FIELD_MESSAGES.required }),
    organisationName,
  })
  .meta({ id: 'UpdateManagedUserRequest' });
export type TUpdateManagedUserRequest = z.input<typeof ZUpdateManagedUserRequest>;

/** DELETE /management/user, POST /management/user/restore and POST /management/reset-mfa. */
export const ZManagedUserRef = z.object({ userId: z.uuid() }).meta({ id: 'ManagedUserRef' });
export type TManagedUserRef = z.infer<typeof ZManagedUserRef>;

// ── The audit log ─────────────────────────────────────────────────────────────────────────────

/**
 * What staff did (issue 32 §1). Later issues add theirs; the list is the audit log's action filter.
 * Identity-pool actions are written twice: an INTENT before the call, then SUCCEEDED or FAILED.
 */
export const AUDIT_ACTIONS = [
  'USER_INVITED',
  'USER_UPDATED',
  'USER_REMOVED',
  'USER_MFA_RESET',
  'USER_PURGED',
  'USER_RESTORED',
  'STAFF_ALERT_ACKNOWLEDGED',
  'FEATURE_OVERRIDE_SET',
  'FEATURE_OVERRIDE_CLEARED',
  'TRIAL_EXTENDED',
  'TIER_CREATED',
  'TIER_UPDATED',
  'TIER_REORDERED',
  'TIER_RETIRED',
  'TIER_UNRETIRED',
  'TIER_DELETED',
  'APPLICATION_CREATED',
  'PLAN_CHANGED',
  'RECEIPT_RECORDED',
  'ORDER_REFUNDED',
  'PRIVATE_NETWORK_APPROVED',
  'PRIVATE_NETWORK_REJECTED',
  'PRIVATE_NETWORK_REMOVAL_COMPLETED',
  'CAMPAIGN_CREATED',
  'CAMPAIGN_UPDATED',
  'CAMPAIGN_DELETED',
  'CAMPAIGN_STATUS_CHANGED',
  'TASK_CREATED',
  'TASK_UPDATED',
  'TASK_DELETED',
  'CLAIM_PAID',
  'CLAIM_REJECTED',
  'BETA_FEATURE_CREATED',
  'BETA_FEATURE_UPDATED',
  'BETA_FEATURE_DELETED',
  'BETA_INVITED',
  'BETA_INVITATION_REVOKED',
  'BETA_OPTED_IN',
  'BETA_OPTED_OUT',
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_OUTCOMES = ['DONE', 'INTENT', 'SUCCEEDED', 'FAILED'] as const;
export type TAuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const ZAuditEntry = z
  .object({
    /** Ascending with time (a sequence). */
    id: z.string(),
    occurredAt: z.iso.datetime({ offset: true }),
    /** The staff user; null for the system (a job). */
    actorId: z.uuid().nullable(),
    actorEmail: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    /** DONE: one entry for a change in the database; INTENT then SUCCEEDED/FAILED for the identity pool. */
    outcome: z.enum(AUDIT_OUTCOMES),
    /** The record acted on: `user` and its id, `staff_alert`… */
    recordType: z.string(),
    recordId: z.string(),
    /** The record's values before and after, as far as the action changed them. */
    before: z.record(z.string(), z.unknown()).nullable(),
    after: z.record(z.string(), z.unknown()).nullable(),
    /** The intent an outcome answers. */
    intentId: z.string().nullable(),
    /** Why an outcome FAILED. */
    detail: z.string().nullable(),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const AUDIT_SORT_FIELDS = ['occurredAt'] as const;

const ZAuditFilters = {
  /** Part of the actor's email (case-insensitive prefix of the address). */
  actor: ZStaffSearchTerm,
  action: z.enum(AUDIT_ACTIONS).optional(),
  recordType: z.string().trim().max(40).optional(),
  recordId: z.string().trim().max(100).optional(),
};

export const ZAuditLogQuery = staffListQuery(AUDIT_SORT_FIELDS).omit({ searchTerm: true }).extend(ZAuditFilters);
export type TAuditLogQuery = z.input<typeof ZAuditLogQuery>;

export const ZAuditLogResponse = ZStaffListPaging.extend({ entries: z.array(ZAuditEntry) }).meta({
  id: 'AuditLogResponse',
});
export type TAuditLogResponse = z.infer<typeof ZAuditLogResponse>;

/** GET /management/audit-log/export: the same filters, every matching entry as CSV (newest first). */
export const ZAuditExportQuery = z.object(ZAuditFilters);
export type TAuditExportQuery = z.input<typeof ZAuditExportQuery>;
/** The export stops at this many rows (the file says so in its last line when it does). */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;
