import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZMfaStatus, type TMfaStatus } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /user/mfa-status: the identity provider's MFA state, which the server also stores on the
 * portal user. Always asked afresh: the authenticator can change outside this page.
 */
export function getMfaStatus(): Promise<TMfaStatus> {
  return api.connect.get('/user/mfa-status', { schema: ZMfaStatus });
}

export const getMfaStatusQueryOptions = () =>
  queryOptions({ queryKey: ['connect', 'user', 'mfa-status'], queryFn: getMfaStatus, staleTime: 0 });

export function useMfaStatus() {
  return useQuery(getMfaStatusQueryOptions());
}
