import { useMutation } from '@tanstack/react-query';
import { ZKycToken, type TKycToken } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /kyc/token: creates the applicant on first use and issues a short-lived SDK token. Asked
 * for when the user starts the Onfido capture (a mutation: every start needs a fresh token).
 */
export function getKycToken(): Promise<TKycToken> {
  return api.connect.get('/kyc/token', { schema: ZKycToken });
}

export function useKycToken() {
  return useMutation({ mutationFn: getKycToken });
}
