import {
  ZAccountEthAddress,
  ZAccountOverridesResponse,
  ZAuditEntry,
  ZAuditLogResponse,
  ZAvailableFeatures,
  ZManagementAccount,
  ZManagementAccountsResponse,
  ZManagementUser,
  ZManagementUsersResponse,
  ZStaffAlert,
  type TAccountOverridesResponse,
  type TAuditEntry,
  type TAuditLogResponse,
  type TManagementAccount,
  type TManagementAccountsResponse,
  type TManagementUser,
  type TManagementUsersResponse,
  type TStaffAlert,
  type TUser,
} from '@connect/shared';
import { TEST_USER } from '../../../test/fixtures.ts';

export { createFetchMock, json } from '../../../test/fixtures.ts';

/*
 * The staff console's test data, parsed by the shared schemas: a fixture the server could not send
 * fails here, not in a page.
 */

/** The signed-in administrator, MFA on. */
export const ADMIN: TUser = {
  ...TEST_USER,
  id: '7a000000-0000-4000-8000-000000000001',
  sub: '7a000000-0000-4000-8000-000000000001',
  accountId: '7a000000-0000-4000-8000-0000000000aa',
  email: 'grace@connect.example',
  role: 'QUANT_ADMIN',
  firstName: 'Grace',
  lastName: 'Hopper',
  organisationName: 'Connect staff',
};

export const CUSTOMER: TManagementUser = ZManagementUser.parse({
  userId: '7b000000-0000-4000-8000-000000000001',
  accountId: '7b000000-0000-4000-8000-0000000000aa',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  role: 'SME',
  status: 'ACTIVE',
  organisationName: 'Analytical Engines Ltd',
  statusChangedAt: '2026-11-02T10:30:00.000Z',
  addedBy: 'grace@connect.example',
  removedBy: null,
  onfidoApplicantStatus: 'VERIFIED',
  firstLoginAt: '2026-11-02T11:00:00.000Z',
  lastLoginAt: '2026-11-20T08:15:00.000Z',
  mfaStatus: 'ACTIVE',
});

export const STAFF: TManagementUser = ZManagementUser.parse({
  ...CUSTOMER,
  userId: '7b000000-0000-4000-8000-000000000002',
  accountId: ADMIN.accountId,
  firstName: 'Katherine',
  lastName: 'Johnson',
  email: 'katherine@connect.example',
  role: 'QUANT_SALES',
  organisationName: 'Connect staff',
  onfidoApplicantStatus: 'UNVERIFIED',
  mfaStatus: 'FIRST_LOGIN',
  firstLoginAt: null,
  lastLoginAt: null,
});

/** The administrator's own row. */
export const SELF: TManagementUser = ZManagementUser.parse({
  ...STAFF,
  userId: ADMIN.id,
  firstName: 'Grace',
  lastName: 'Hopper',
  email: ADMIN.email,
  role: 'QUANT_ADMIN',
  addedBy: 'system',
  mfaStatus: 'ACTIVE',
});

export const REMOVED: TManagementUser = ZManagementUser.parse({
  ...CUSTOMER,
  userId: '7b000000-0000-4000-8000-000000000003',
  firstName: 'Charles',
  lastName: 'Babbage',
  email: 'charles@example.com',
  status: 'REMOVED',
  removedBy: 'grace@connect.example',
});

export const COUNTS = { ACTIVE: 12, PENDING: 3, REMOVED: 1 };

export function usersAnswer(
  rows: TManagementUser[],
  {
    page = 0,
    size = 5,
    totalItems = rows.length,
    totalCapped = false,
    cursor = `cursor-${page}`,
  }: { page?: number; size?: number; totalItems?: number; totalCapped?: boolean; cursor?: string | null } = {},
): TManagementUsersResponse {
  return ZManagementUsersResponse.parse({
    userList: rows,
    statusesList: Object.entries(COUNTS).map(([userStatus, statusCount]) => ({ userStatus, statusCount })),
    totalItems,
    totalPages: Math.ceil(totalItems / size),
    totalCapped,
    page,
    size,
    hasNextPage: (page + 1) * size < totalItems,
    cursor: rows.length ? cursor : null,
  });
}

export const ETH_ADDRESS = ZAccountEthAddress.parse({
  accountId: CUSTOMER.accountId,
  address: '0x12ab34cd56ef7890abcdef1234567890abcd9f3c',
  derivationIndex: 7,
  allocatedAt: '2026-11-02T11:00:00.000Z',
  held: '0',
});

export const INVITED_ENTRY: TAuditEntry = ZAuditEntry.parse({
  id: '41',
  occurredAt: '2026-11-21T09:05:00.000Z',
  actorId: ADMIN.id,
  actorEmail: ADMIN.email,
  action: 'USER_INVITED',
  outcome: 'SUCCEEDED',
  recordType: 'user',
  recordId: STAFF.userId,
  before: null,
  after: { email: STAFF.email, role: 'QUANT_SALES' },
  intentId: '40',
  detail: null,
  requestId: 'req-0a1b2c3d4e5f',
});

export const UPDATED_ENTRY: TAuditEntry = ZAuditEntry.parse({
  ...INVITED_ENTRY,
  id: '42',
  occurredAt: '2026-11-21T10:00:00.000Z',
  action: 'USER_UPDATED',
  outcome: 'DONE',
  recordId: CUSTOMER.userId,
  before: { role: 'SME', firstName: 'Ada' },
  after: { role: 'INSTITUTION', firstName: 'Ada' },
  intentId: null,
  requestId: 'req-99887766',
});

export function auditAnswer(
  entries: TAuditEntry[],
  { page = 0, size = 5, totalItems = entries.length } = {},
): TAuditLogResponse {
  return ZAuditLogResponse.parse({
    entries,
    totalItems,
    totalPages: Math.ceil(totalItems / size),
    totalCapped: false,
    page,
    size,
    hasNextPage: (page + 1) * size < totalItems,
    cursor: entries.length ? `audit-${page}` : null,
  });
}

export const OPEN_ALERT: TStaffAlert = ZStaffAlert.parse({
  id: '7c000000-0000-4000-8000-000000000001',
  code: 'QNT_TRANSFER_REVERSED',
  message: 'A confirmed QNT transfer was taken back by a chain reorganisation.',
  record: { type: 'qnt_transfer', id: '7d000000-0000-4000-8000-000000000001' },
  raisedAt: '2026-11-20T12:00:00.000Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
});

export const ACKNOWLEDGED_ALERT: TStaffAlert = ZStaffAlert.parse({
  ...OPEN_ALERT,
  id: '7c000000-0000-4000-8000-000000000002',
  code: 'BRIDGE_RELAYER_STUCK',
  message: 'The bridge relayer has not moved for an hour.',
  record: null,
  acknowledgedAt: '2026-11-20T13:00:00.000Z',
  acknowledgedBy: ADMIN.id,
});

/** The signed-in sales user (management-sales: account management, never the deposit address). */
export const SALES: TUser = {
  ...ADMIN,
  id: '7a000000-0000-4000-8000-000000000002',
  sub: '7a000000-0000-4000-8000-000000000002',
  email: 'katherine@connect.example',
  role: 'QUANT_SALES',
  firstName: 'Katherine',
  lastName: 'Johnson',
};

/** Ada's account: active, on a trial that is still pending payment. */
export const ACCOUNT: TManagementAccount = ZManagementAccount.parse({
  accountId: CUSTOMER.accountId,
  organisationName: 'Analytical Engines Ltd',
  status: 'ACTIVE',
  accountOwner: { userId: CUSTOMER.userId, email: CUSTOMER.email, name: 'Ada Lovelace' },
  currentPlan: 'Starter',
  planStatus: 'PENDING',
  planExpiryDate: '2026-12-02T10:30:00.000Z',
  lastLogin: '2026-11-20T08:15:00.000Z',
  createdAt: '2026-11-02T10:30:00.000Z',
});

/** An account whose only user is invited: no name yet, no sign-in. */
export const PENDING_ACCOUNT: TManagementAccount = ZManagementAccount.parse({
  accountId: '7b000000-0000-4000-8000-0000000000bb',
  organisationName: 'Difference Engines plc',
  status: 'PENDING',
  accountOwner: { userId: '7b000000-0000-4000-8000-000000000004', email: 'charles@example.com', name: null },
  currentPlan: 'Growth',
  planStatus: 'ACTIVE',
  planExpiryDate: null,
  lastLogin: null,
  createdAt: '2026-11-10T09:00:00.000Z',
});

export const REMOVED_ACCOUNT: TManagementAccount = ZManagementAccount.parse({
  ...ACCOUNT,
  accountId: '7b000000-0000-4000-8000-0000000000cc',
  organisationName: 'Jacquard Looms SA',
  status: 'REMOVED',
  accountOwner: {
    userId: '7b000000-0000-4000-8000-000000000005',
    email: 'joseph@example.com',
    name: 'Joseph Jacquard',
  },
  planStatus: 'INACTIVE',
});

export function accountsAnswer(
  rows: TManagementAccount[],
  { page = 0, size = 5, totalItems = rows.length } = {},
): TManagementAccountsResponse {
  return ZManagementAccountsResponse.parse({
    accountList: rows,
    totalItems,
    totalPages: Math.ceil(totalItems / size),
    totalCapped: false,
    page,
    size,
    hasNextPage: (page + 1) * size < totalItems,
    cursor: rows.length ? `accounts-${page}` : null,
  });
}

/** Ada's features: the menu's switches except Connect Beta (off), and her counted allowances. */
export const ACCOUNT_FEATURES = ZAvailableFeatures.parse({
  availableFeatures: {
    reward: { t: null, a: 0 },
    'mynetworks:v2': { t: null, a: 0 },
    privateNetwork: { t: null, a: 0 },
    bridge: { t: null, a: 0 },
    'applications:create': { t: 5, a: 2 },
    'tokens:create': { t: 3, a: 3 },
    'bridges:create': { t: null, a: 7 },
  },
});

/**
 * Ada's overrides: Bridges switched on and 10 applications by a staff member; the allowances in
 * force carry the override's number, the plan's for the rest.
 */
export const ACCOUNT_OVERRIDES: TAccountOverridesResponse = ZAccountOverridesResponse.parse({
  overrides: [
    { key: 'bridge', value: { enabled: true }, setBy: ADMIN.id, setAt: '2026-11-21T09:00:00.000Z' },
    { key: 'applications', value: { amount: 10 }, setBy: ADMIN.id, setAt: '2026-11-21T09:01:00.000Z' },
  ],
  allowances: {
    applications: 10,
    tokens: 3,
    bridges: 2,
    blockchains: 0,
    mainnets: 1,
    testnets: 2,
    rateLimit: 1500,
  },
});
