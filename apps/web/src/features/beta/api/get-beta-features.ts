import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZBetaFeatureList, type TBetaFeature } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** Every Connect Beta query starts with this key (the connect service's customer calls). */
export const betaKey = ['connect', 'beta'] as const;

/**
 * GET /beta/features (feature connectBeta): the open beta features and the ones the account is
 * invited to, each with whether the account opted in and whether a staff override switched its
 * feature off for the account.
 */
export async function getBetaFeatures(signal?: AbortSignal): Promise<TBetaFeature[]> {
  const answer = await api.connect.get('/beta/features', { schema: ZBetaFeatureList, ...(signal ? { signal } : {}) });
  return answer.features;
}

export const getBetaFeaturesQueryOptions = () =>
  queryOptions({ queryKey: [...betaKey, 'features'], queryFn: ({ signal }) => getBetaFeatures(signal) });

export function useBetaFeatures() {
  return useQuery(getBetaFeaturesQueryOptions());
}
