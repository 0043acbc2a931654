import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZKycStatusResponse, type TKycStatusResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** While a check is pending the page asks again: often for the sandbox (seconds), rarely for Onfido (hours). */
const SANDBOX_POLL_MS = 1_000;
const ONFIDO_POLL_MS = 30_000;

/** GET /kyc/status: the caller's status and latest check (reading it settles a check that is due). */
export function getKycStatus(): Promise<TKycStatusResponse> {
  return api.connect.get('/kyc/status', { schema: ZKycStatusResponse });
}

export const getKycStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['connect', 'kyc', 'status'],
    queryFn: getKycStatus,
    staleTime: 0,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.status !== 'PENDING') return false;
      return data.isSandbox ? SANDBOX_POLL_MS : ONFIDO_POLL_MS;
    },
  });

export function useKycStatus() {
  return useQuery(getKycStatusQueryOptions());
}
