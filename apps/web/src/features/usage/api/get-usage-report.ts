import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZUsageReport, type TUsageReportQuery, type TUsageReport } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** Every query of the usage page starts with this key; a saved cap refreshes them all. */
export const usageKey = ['application-manager', 'usage'] as const;

/** GET /usage/report: buckets per application, network, method and hour or day, with the month's forecast. */
export function getUsageReport(query: TUsageReportQuery, signal?: AbortSignal): Promise<TUsageReport> {
  return api.applicationManager.get('/usage/report', { query, schema: ZUsageReport, ...(signal ? { signal } : {}) });
}

export const getUsageReportQueryOptions = (query: TUsageReportQuery) =>
  queryOptions({
    queryKey: [...usageKey, 'report', query],
    queryFn: ({ signal }) => getUsageReport(query, signal),
    staleTime: 30_000,
  });

export function useUsageReport(query: TUsageReportQuery) {
  // Changing the period or application keeps the last report on screen until the next arrives.
  return useQuery({ ...getUsageReportQueryOptions(query), placeholderData: keepPreviousData });
}
