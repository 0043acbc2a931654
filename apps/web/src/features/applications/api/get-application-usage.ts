import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZApplicationUsage, type TApplicationUsage } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** GET /application/{id}/usage?days=: daily JSON-RPC requests through the gateway. */
export function getApplicationUsage(id: string, days: number): Promise<TApplicationUsage> {
  return api.applicationManager.get(`/application/${id}/usage`, { query: { days }, schema: ZApplicationUsage });
}

export const getApplicationUsageQueryOptions = (id: string, days = 14) =>
  queryOptions({
    queryKey: [...applicationsKey, 'usage', id, days],
    queryFn: () => getApplicationUsage(id, days),
    staleTime: 10_000,
  });

export function useApplicationUsage(id: string, days = 14) {
  return useQuery(getApplicationUsageQueryOptions(id, days));
}
