import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZMfaStatus, type TMfaStatus } from '@connect/shared';
import { api } from '../api.ts';

/**
 * GET /user/mfa-status: reads the identity provider's MFA state and stores it on the portal user.
 * Always asked afresh (staleTime 0): the authenticator can change outside the portal, and the
 * account page and the set-up and disable mutations all read it through these options, so every
 * view of the status gets the latest answer.
 */
export function getMfaStatus(): Promise<TMfaStatus> {
  return api.connect.get('/user/mfa-status', { schema: ZMfaStatus });
}

export const getMfaStatusQueryOptions = () =>
  queryOptions({ queryKey: ['connect', 'user', 'mfa-status'], queryFn: getMfaStatus, staleTime: 0 });

export function useMfaStatus() {
  return useQuery(getMfaStatusQueryOptions());
}
