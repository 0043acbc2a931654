import { ZManagementOrdersResponse, type TManagementOrdersResponse, type TOrderStatus } from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { useStaffListQuery } from '../../../components/staff-list/use-staff-list-query.ts';
import { api } from '../../../lib/api.ts';
import { managementAccountsKey } from './get-management-accounts.ts';

export type ManagementOrdersQuery = StaffListWireQuery & { status?: TOrderStatus; cursor?: string };

/**
 * GET /api/account-plan/management/order-list (management-admin): one page of every account's
 * orders, newest first, by status, searched by a payment reference or the account (issue 33 §5).
 */
export function getManagementOrders(
  query: ManagementOrdersQuery,
  signal?: AbortSignal,
): Promise<TManagementOrdersResponse> {
  return api.accountPlan.get('/management/order-list', {
    query,
    schema: ZManagementOrdersResponse,
    ...(signal ? { signal } : {}),
  });
}

// Under the account list's key: a receipt or a refund (invalidate.ts) refreshes the orders too.
export function useManagementOrders(query: Omit<ManagementOrdersQuery, 'cursor'>) {
  return useStaffListQuery({
    queryKey: [...managementAccountsKey, 'orders', query],
    fetchPage: (cursor, signal) => getManagementOrders({ ...query, ...(cursor ? { cursor } : {}) }, signal),
  });
}
