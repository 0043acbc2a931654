import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvironmentManagerResponse, type TEnvironmentManagerResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /environment-manager/networks/{accountId}: blockchains with their networks. */
export function getEnvironmentNetworks(accountId: string): Promise<TEnvironmentManagerResponse> {
  return api.integrate.get(`/environment-manager/networks/${encodeURIComponent(accountId)}`, {
    schema: ZEnvironmentManagerResponse,
  });
}

/** The key prefix of every environment-manager query, to refresh them after activation. */
export const environmentNetworksKey = ['integrate', 'environment-manager'] as const;

export const getEnvironmentNetworksQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: [...environmentNetworksKey, accountId],
    queryFn: () => getEnvironmentNetworks(accountId),
    staleTime: 30_000,
  });

export function useEnvironmentNetworks(accountId: string | undefined) {
  return useQuery({ ...getEnvironmentNetworksQueryOptions(accountId ?? ''), enabled: Boolean(accountId) });
}
