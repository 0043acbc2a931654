import { useMutation } from '@tanstack/react-query';
import { ZUser, type TAcceptTermsRequest, type TUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { setCurrentUser } from '../../../lib/current-user.ts';

/** POST /terms-conditions: accepts a version (only the latest is accepted) and answers the user. */
export function acceptTerms(body: TAcceptTermsRequest): Promise<TUser> {
  return api.connect.post('/terms-conditions', body, { schema: ZUser });
}

export function useAcceptTerms() {
  return useMutation({
    mutationFn: acceptTerms,
    // The gate reads the cached user: with the answer in place it lets the user on at once.
    onSuccess: setCurrentUser,
  });
}
