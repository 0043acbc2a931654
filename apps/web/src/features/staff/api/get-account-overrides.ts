import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAccountOverridesResponse, type TAccountOverridesResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementAccountsKey } from './get-management-accounts.ts';

/**
 * GET /management/accounts/{accountId}/overrides (management-sales): the feature and allowance
 * overrides that win over the account's plan until staff clear them, and the allowances in force
 * (the override's number, else the plan's; null when the account has no plan).
 */
export function getAccountOverrides(accountId: string, signal?: AbortSignal): Promise<TAccountOverridesResponse> {
  return api.connect.get(`/management/accounts/${encodeURIComponent(accountId)}/overrides`, {
    schema: ZAccountOverridesResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getAccountOverridesQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: [...managementAccountsKey, 'overrides', accountId],
    queryFn: ({ signal }) => getAccountOverrides(accountId, signal),
  });

export function useAccountOverrides(accountId: string) {
  return useQuery(getAccountOverridesQueryOptions(accountId));
}
