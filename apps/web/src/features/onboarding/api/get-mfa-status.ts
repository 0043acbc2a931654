import { queryOptions } from '@tanstack/react-query';
import { ZMfaStatus, type TMfaStatus } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /user/mfa-status: reads the identity provider's MFA state and stores it on the portal user,
 * so it is called after every change of the authenticator, never answered from a cache.
 */
export function getMfaStatus(): Promise<TMfaStatus> {
  return api.connect.get('/user/mfa-status', { schema: ZMfaStatus });
}

export const getMfaStatusQueryOptions = () =>
  queryOptions({ queryKey: ['connect', 'user', 'mfa-status'], queryFn: getMfaStatus, staleTime: 0 });
