import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZTermsVersion, type TTermsVersion } from '@connect/shared';
import { api } from '../api.ts';

/** GET /terms-conditions/version: the latest terms (title, version, publication date, link) the user must accept. */
export function getTermsVersion(): Promise<TTermsVersion> {
  return api.connect.get('/terms-conditions/version', { schema: ZTermsVersion });
}

export const getTermsVersionQueryOptions = () =>
  queryOptions({ queryKey: ['connect', 'terms-conditions', 'version'], queryFn: getTermsVersion });

export function useTermsVersion() {
  return useQuery(getTermsVersionQueryOptions());
}
