import { useMutation } from '@tanstack/react-query';
import { ZKycToken, type TKycToken } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /kyc/token: creates the applicant on first use and issues a short-lived Onfido SDK token (a
 * JWT for Onfido's web SDK). Asked for when the user starts the Onfido capture (a mutation: every
 * start needs a fresh one).
 */
export function getKycSdkToken(): Promise<TKycToken> {
  return api.connect.get('/kyc/token', { schema: ZKycToken });
}

export function useKycSdkToken() {
  return useMutation({ mutationFn: getKycSdkToken });
}
