import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZBalanceHistory, type TBalanceHistory, type TBalanceHistoryQuery } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { usageKey } from './get-usage-report.ts';

/** GET /usage/balance-history: the credit balance from the ledger, one point per entry in the range. */
export function getBalanceHistory(range: TBalanceHistoryQuery, signal?: AbortSignal): Promise<TBalanceHistory> {
  return api.applicationManager.get('/usage/balance-history', {
    query: range,
    schema: ZBalanceHistory,
    ...(signal ? { signal } : {}),
  });
}

export const getBalanceHistoryQueryOptions = (range: TBalanceHistoryQuery) =>
  queryOptions({
    queryKey: [...usageKey, 'balance-history', range],
    queryFn: ({ signal }) => getBalanceHistory(range, signal),
    staleTime: 30_000,
  });

export function useBalanceHistory(range: TBalanceHistoryQuery) {
  return useQuery({ ...getBalanceHistoryQueryOptions(range), placeholderData: keepPreviousData });
}
