import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZUserNetworksResponse, type TNetworkType, type TUserNetwork } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /v2/user-networks?networkType=: the account's networks of one type (spec §7). */
export async function getUserNetworks(networkType: TNetworkType): Promise<TUserNetwork[]> {
  const body = await api.integrate.get('/v2/user-networks', {
    query: { networkType },
    schema: ZUserNetworksResponse,
  });
  return body.networks;
}

/** The key prefix of every My networks list, to refresh them all after a change. */
export const userNetworksKey = ['integrate', 'user-networks'] as const;

export const getUserNetworksQueryOptions = (networkType: TNetworkType) =>
  queryOptions({
    queryKey: [...userNetworksKey, networkType],
    queryFn: () => getUserNetworks(networkType),
    // The status column is a live health check: keep it fresh while the page is open.
    staleTime: 15_000,
    refetchInterval: 30_000,
  });

export function useUserNetworks(networkType: TNetworkType, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getUserNetworksQueryOptions(networkType), enabled: options.enabled ?? true });
}
