import { useMutation } from '@tanstack/react-query';
import { ZKycSdkToken, type TKycSdkToken } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /kyc/token: creates the applicant on first use and issues a short-lived Onfido SDK token (a
 * JWT for Onfido's web SDK). Asked for when the user starts the Onfido capture (a mutation: every
 * start needs a fresh one).
 */
export function getKycSdkToken(): Promise<TKycSdkToken> {
  return api.connect.get('/kyc/token', { schema: ZKycSdkToken });
}

export function useKycSdkToken() {
  return useMutation({ mutationFn: getKycSdkToken });
}
