import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZStaffAlertsResponse, type TStaffAlert } from '@connect/shared';
import { api } from '../../../lib/api.ts';

export const staffAlertsKey = ['connect', 'management', 'alerts'] as const;

export type StaffAlertsStatus = 'open' | 'all';

/** GET /management/alerts: what the platform raised for staff, newest first; `open` only those nobody acknowledged. */
export async function getStaffAlerts(status: StaffAlertsStatus, signal?: AbortSignal): Promise<TStaffAlert[]> {
  const answer = await api.connect.get('/management/alerts', {
    query: { status },
    schema: ZStaffAlertsResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.alerts;
}

export const getStaffAlertsQueryOptions = (status: StaffAlertsStatus) =>
  queryOptions({
    queryKey: [...staffAlertsKey, status],
    queryFn: ({ signal }) => getStaffAlerts(status, signal),
  });

export function useStaffAlerts(status: StaffAlertsStatus) {
  return useQuery(getStaffAlertsQueryOptions(status));
}
