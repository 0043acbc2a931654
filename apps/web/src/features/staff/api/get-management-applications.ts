import {
  ZManagementApplicationsResponse,
  type TApplicationListStatus,
  type TManagementApplicationsResponse,
} from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { useStaffListQuery } from '../../../components/staff-list/use-staff-list-query.ts';
import { api } from '../../../lib/api.ts';

/** Every application-management query starts with this key: a creation refreshes them all. */
export const managementApplicationsKey = ['application-manager', 'management', 'applications'] as const;

/** `status` absent is All statuses (sent as repeated keys, spec §7); `networkId` absent is every network. */
export type ManagementApplicationsQuery = StaffListWireQuery & {
  status?: TApplicationListStatus[];
  networkId?: string;
  cursor?: string;
};

/**
 * GET /management/applications/ (issue 33 §2; spec §7): one page of every account's applications.
 * `sort` is `field:direction` or '' for none; the request layer leaves an empty sort and absent
 * filters out of the address, which the server reads as none.
 */
export function getManagementApplications(
  query: ManagementApplicationsQuery,
  signal?: AbortSignal,
): Promise<TManagementApplicationsResponse> {
  return api.applicationManager.get('/management/applications/', {
    query,
    schema: ZManagementApplicationsResponse,
    ...(signal ? { signal } : {}),
  });
}

export function useManagementApplications(query: Omit<ManagementApplicationsQuery, 'cursor'>) {
  return useStaffListQuery({
    queryKey: [...managementApplicationsKey, 'list', query],
    fetchPage: (cursor, signal) => getManagementApplications({ ...query, ...(cursor ? { cursor } : {}) }, signal),
  });
}
