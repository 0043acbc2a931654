import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZManagementNetworkCatalogue, type TManagementNetworkCatalogue } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementApplicationsKey } from './get-management-applications.ts';

/** GET /management/networks: every network of the catalogue (the application list's network filter). */
export function getNetworkCatalogue(signal?: AbortSignal): Promise<TManagementNetworkCatalogue> {
  return api.applicationManager.get('/management/networks', {
    schema: ZManagementNetworkCatalogue,
    ...(signal ? { signal } : {}),
  });
}

export const getNetworkCatalogueQueryOptions = () =>
  queryOptions({
    queryKey: [...managementApplicationsKey, 'network-catalogue'],
    queryFn: ({ signal }) => getNetworkCatalogue(signal),
    staleTime: 5 * 60_000,
  });

export function useNetworkCatalogue() {
  return useQuery(getNetworkCatalogueQueryOptions());
}
