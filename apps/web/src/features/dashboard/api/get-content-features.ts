import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZContentFeaturesResponse, type TContentFeature } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /content/features: the dashboard's feature list, in the server's order. */
export async function getContentFeatures(): Promise<TContentFeature[]> {
  return (await api.connect.get('/content/features', { schema: ZContentFeaturesResponse })).features;
}

export const getContentFeaturesQueryOptions = () =>
  queryOptions({ queryKey: ['connect', 'content', 'features'], queryFn: getContentFeatures, staleTime: 5 * 60_000 });

export function useContentFeatures() {
  return useQuery(getContentFeaturesQueryOptions());
}
