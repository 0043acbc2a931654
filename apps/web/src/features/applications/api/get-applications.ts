import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZApplicationsPage, type TApplicationsPage, type TApplicationsQuery } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /applications/: one page of the account's applications with the allowance (spec §7). */
export function getApplications(query: TApplicationsQuery): Promise<TApplicationsPage> {
  return api.applicationManager.get('/applications/', { query, schema: ZApplicationsPage });
}

/** The key prefix of every application query, to refresh lists and details after a change. */
export const applicationsKey = ['application-manager', 'applications'] as const;

export const getApplicationsQueryOptions = (query: TApplicationsQuery) =>
  queryOptions({
    queryKey: [...applicationsKey, 'list', query],
    queryFn: () => getApplications(query),
    placeholderData: keepPreviousData,
  });

export function useApplications(query: TApplicationsQuery) {
  return useQuery(getApplicationsQueryOptions(query));
}
