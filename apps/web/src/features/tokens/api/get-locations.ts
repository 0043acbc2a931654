import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZLocationsResponse, type TTokenLocation } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /v2/orchestration/locations: the networks (technology + network) the account can deploy on. */
export async function getLocations(): Promise<TTokenLocation[]> {
  return (await api.tokenise.get('/v2/orchestration/locations', { schema: ZLocationsResponse })).locations;
}

export const getLocationsQueryOptions = () =>
  queryOptions({ queryKey: ['tokenise', 'locations'], queryFn: getLocations, staleTime: 30_000 });

export function useLocations() {
  return useQuery(getLocationsQueryOptions());
}
