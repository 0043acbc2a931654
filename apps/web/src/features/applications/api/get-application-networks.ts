import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZApplicationNetworksResponse, type ApplicationType, type TApplicationNetwork } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { applicationsKey } from './get-applications.ts';

/** GET /networks: the networks the account activated, optionally of one application type. */
export async function getApplicationNetworks(applicationType?: ApplicationType): Promise<TApplicationNetwork[]> {
  const body = await api.applicationManager.get('/networks', {
    query: { applicationType },
    schema: ZApplicationNetworksResponse,
  });
  return body.networks;
}

/** GET /networks/{id}: the networks an existing application may use (its type, activated). */
export async function getNetworksForApplication(id: string): Promise<TApplicationNetwork[]> {
  const body = await api.applicationManager.get(`/networks/${id}`, { schema: ZApplicationNetworksResponse });
  return body.networks;
}

export const getApplicationNetworksQueryOptions = (applicationType?: ApplicationType) =>
  queryOptions({
    queryKey: [...applicationsKey, 'networks', applicationType ?? 'all'],
    queryFn: () => getApplicationNetworks(applicationType),
  });

export const getNetworksForApplicationQueryOptions = (id: string) =>
  queryOptions({ queryKey: [...applicationsKey, 'networks-of', id], queryFn: () => getNetworksForApplication(id) });

export function useApplicationNetworks(applicationType?: ApplicationType, options: { enabled?: boolean } = {}) {
  return useQuery({ ...getApplicationNetworksQueryOptions(applicationType), enabled: options.enabled ?? true });
}

export function useNetworksForApplication(id: string) {
  return useQuery(getNetworksForApplicationQueryOptions(id));
}
