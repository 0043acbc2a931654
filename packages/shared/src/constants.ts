/** Roles of spec §6. A portal user has exactly one. */
export const ROLES = ['QUANT_ADMIN', 'INDIVIDUAL', 'SME', 'INSTITUTION', 'QUANT_SALES'] as const;
export type Role = (typeof ROLES)[number];

/** Access groups of spec §6 and the roles each admits. */
export const ROLE_GROUPS = {
  general: ['INDIVIDUAL', 'SME', 'INSTITUTION', 'QUANT_ADMIN', 'QUANT_SALES'],
  'management-admin': ['QUANT_ADMIN'],
  'management-sales': ['QUANT_SALES', 'QUANT_ADMIN'],
} as const satisfies Record<string, readonly Role[]>;
export type RoleGroup = keyof typeof ROLE_GROUPS;
export const ROLE_GROUP_NAMES = Object.keys(ROLE_GROUPS) as RoleGroup[];

/** Roles only staff hold; a customer account's user can never be given one (issue 32 §1). */
export const STAFF_ROLES = ['QUANT_ADMIN', 'QUANT_SALES'] as const satisfies readonly Role[];
export const CUSTOMER_ROLES = ['INDIVIDUAL', 'SME', 'INSTITUTION'] as const satisfies readonly Role[];
export function isStaffRole(role: Role): boolean {
  return (STAFF_ROLES as readonly Role[]).includes(role);
}

export function roleInGroups(role: Role, groups: readonly RoleGroup[]): boolean {
  return groups.some((group) => (ROLE_GROUPS[group] as readonly Role[]).includes(role));
}

/** The nine backend services of spec §7; billing and invoices are served by payment. */
export const SERVICES = [
  'connect',
  'integrate',
  'account-plan',
  'application-manager',
  'tokenise',
  'bridge',
  'payment',
  'campaign',
] as const;
export type ServiceName = (typeof SERVICES)[number];

export const USER_STATUSES = ['ACTIVE', 'PENDING', 'REMOVED'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'VERIFIED', 'FAILED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const PLAN_STATUSES = ['ACTIVE', 'PENDING', 'INACTIVE', 'DISABLED'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** MFA as the portal reports it: both flags → ACTIVE, verified but not preferred → SETUP. */
export const MFA_STATUSES = ['ACTIVE', 'SETUP', 'DISABLED'] as const;
export type MfaStatus = (typeof MFA_STATUSES)[number];

/**
 * The switchable features of spec §6 (on or off per account; staff override them, issue 33) and
 * the plan allowances staff may override with a number (the entitlements module reads each from
 * its `rate_plans` column; 0 blockchains means all).
 */
export const FEATURE_SWITCHES = ['reward', 'mynetworks:v2', 'privateNetwork', 'connectBeta', 'bridge'] as const;
export type FeatureSwitch = (typeof FEATURE_SWITCHES)[number];
export const PLAN_ALLOWANCES = [
  'applications',
  'tokens',
  'bridges',
  'blockchains',
  'mainnets',
  'testnets',
  'rateLimit',
] as const;
export type PlanAllowance = (typeof PLAN_ALLOWANCES)[number];

/** Switchable features of spec §6 plus the usage-limited ones of spec §5. */
export const FEATURES = [
  'reward',
  'mynetworks:v2',
  'privateNetwork',
  'connectBeta',
  'bridge',
  'tokens:create',
  'bridges:create',
  'applications:create',
] as const;
export type FeatureName = (typeof FEATURES)[number];

export const HEAR_ABOUT_US = [
  'SEARCH_ENGINE',
  'SOCIAL_MEDIA',
  'EVENT',
  'RECOMMENDATION',
  'NEWS_ARTICLE',
  'OTHER',
] as const;
/** The answers that need a few words more (the event's name, or what "other" was). */
export const HEAR_ABOUT_US_WITH_DESCRIPTION = [
  'EVENT',
  'OTHER',
] as const satisfies readonly (typeof HEAR_ABOUT_US)[number][];
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1000+'] as const;
export const INDUSTRIES = [
  'Financial services',
  'Banking',
  'Payments',
  'Technology',
  'Government',
  'Healthcare',
  'Supply chain',
  'Energy',
  'Education',
  'Other',
] as const;

/** Spec §9 constants. */
export const LIMITS = {
  requestTimeoutMs: 30_000,
  planRefreshMs: 600_000,
  snackbarMs: 2_000,
  chunkLoadTimeoutMs: 120_000,
  backToTopPx: 64,
  sessionRefreshThresholdSeconds: 60,
  pageSizes: [5, 10, 50, 100],
  dashboardUpdatesPageSize: 3,
  applicationNameMax: 49,
  codeLength: 6,
  passwordMin: 8,
  pendingUserRetentionDays: 90,
} as const;
