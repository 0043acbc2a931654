import { useMutation } from '@tanstack/react-query';
import { ZVerifyTokenResponse, type TVerifyTokenRequest, type TVerifyTokenResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** POST /token/verify: the server's check of the token form for a network and tier (nothing is created). */
export function verifyToken(request: TVerifyTokenRequest): Promise<TVerifyTokenResponse> {
  return api.tokenise.post('/token/verify', request, { schema: ZVerifyTokenResponse });
}

export function useVerifyToken() {
  return useMutation({ mutationFn: verifyToken });
}
