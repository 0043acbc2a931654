import { ZManagementUsersResponse, type TManagementUsersResponse, type TUserTab } from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { useStaffListQuery } from '../../../components/staff-list/use-staff-list-query.ts';
import { api } from '../../../lib/api.ts';

/** Every user-management query starts with this key: an invite, edit, removal or MFA reset refreshes them all. */
export const managementUsersKey = ['connect', 'management', 'users'] as const;

export type ManagementUsersQuery = StaffListWireQuery & { status: Uppercase<TUserTab>; cursor?: string };

/**
 * GET /management/users: one page of a tab (sent in upper case, spec §4) with every tab's count.
 * `sort` is `field:direction` or '' for none; the request layer leaves an empty sort and an
 * absent term out of the address, which the server reads as none.
 */
export function getManagementUsers(
  query: ManagementUsersQuery,
  signal?: AbortSignal,
): Promise<TManagementUsersResponse> {
  return api.connect.get('/management/users', {
    query,
    schema: ZManagementUsersResponse,
    ...(signal ? { signal } : {}),
  });
}

export function useManagementUsers(query: Omit<ManagementUsersQuery, 'cursor'>) {
  return useStaffListQuery({
    queryKey: [...managementUsersKey, 'list', query],
    fetchPage: (cursor, signal) => getManagementUsers({ ...query, ...(cursor ? { cursor } : {}) }, signal),
  });
}
