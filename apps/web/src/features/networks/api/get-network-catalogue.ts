import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCatalogueResponse, type TCatalogueResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /v2/networks: the catalogue with what the caller may activate, and the plan's allowance. */
export function getNetworkCatalogue(): Promise<TCatalogueResponse> {
  return api.integrate.get('/v2/networks', { schema: ZCatalogueResponse });
}

export const getNetworkCatalogueQueryOptions = () =>
  queryOptions({
    queryKey: ['integrate', 'networks'],
    queryFn: getNetworkCatalogue,
    staleTime: 30_000,
  });

export function useNetworkCatalogue() {
  return useQuery(getNetworkCatalogueQueryOptions());
}
