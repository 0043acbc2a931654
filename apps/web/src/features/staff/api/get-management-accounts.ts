import {
  ZManagementAccountsResponse,
  type TManagementAccountsResponse,
  type TAccountListStatus,
} from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { useStaffListQuery } from '../../../components/staff-list/use-staff-list-query.ts';
import { api } from '../../../lib/api.ts';

/** Every account-management query starts with this key: a later staff action on an account refreshes them all. */
export const managementAccountsKey = ['connect', 'management', 'accounts'] as const;

/** `status` absent is All statuses; the request layer sends an array as repeated keys (spec §7). */
export type ManagementAccountsQuery = StaffListWireQuery & { status?: TAccountListStatus[]; cursor?: string };

/**
 * GET /management/accounts: one page of the account list (issue 33 §1). `sort` is `field:direction`
 * or '' for none; the request layer leaves an empty sort, an absent term and an absent status out
 * of the address, which the server reads as none.
 */
export function getManagementAccounts(
  query: ManagementAccountsQuery,
  signal?: AbortSignal,
): Promise<TManagementAccountsResponse> {
  return api.connect.get('/management/accounts', {
    query,
    schema: ZManagementAccountsResponse,
    ...(signal ? { signal } : {}),
  });
}

export function useManagementAccounts(query: Omit<ManagementAccountsQuery, 'cursor'>) {
  return useStaffListQuery({
    queryKey: [...managementAccountsKey, 'list', query],
    fetchPage: (cursor, signal) => getManagementAccounts({ ...query, ...(cursor ? { cursor } : {}) }, signal),
  });
}
