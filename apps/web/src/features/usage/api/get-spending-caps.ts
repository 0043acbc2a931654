import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZSpendingCaps, type TSpendingCaps } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { usageKey } from './get-usage-report.ts';

/** GET /usage/caps: every application of the account, this month's credits against its cap. */
export function getSpendingCaps(signal?: AbortSignal): Promise<TSpendingCaps> {
  return api.applicationManager.get('/usage/caps', { schema: ZSpendingCaps, ...(signal ? { signal } : {}) });
}

export const getSpendingCapsQueryOptions = () =>
  queryOptions({
    queryKey: [...usageKey, 'caps'],
    queryFn: ({ signal }) => getSpendingCaps(signal),
    staleTime: 30_000,
  });

export function useSpendingCaps() {
  return useQuery(getSpendingCapsQueryOptions());
}
