import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAvailableFeatures, type TAvailableFeatures } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementAccountsKey } from './get-management-accounts.ts';

/**
 * GET /management/feature/account/{accountId} (management-sales): the account's feature map, the
 * one its customers' menu reads from GET /available — feature name to { t: total (null =
 * unlimited), a: used }; a feature that is off is absent.
 */
export async function getAccountFeatures(accountId: string, signal?: AbortSignal): Promise<TAvailableFeatures> {
  const answer = await api.connect.get(`/management/feature/account/${encodeURIComponent(accountId)}`, {
    schema: ZAvailableFeatures,
    ...(signal ? { signal } : {}),
  });
  return answer.availableFeatures;
}

// Under the account list's key with the other account queries; an override change refreshes only
// this account's features (invalidate.ts), not the list.
export const getAccountFeaturesQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: [...managementAccountsKey, 'features', accountId],
    queryFn: ({ signal }) => getAccountFeatures(accountId, signal),
  });

export function useAccountFeatures(accountId: string) {
  return useQuery(getAccountFeaturesQueryOptions(accountId));
}
