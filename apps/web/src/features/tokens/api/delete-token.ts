import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZDeleteTokenResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { tokensKey } from './get-tokens.ts';

/** DELETE /token/{externalId}: removes a token that is not on chain (a failed or unsent deployment). */
export function deleteToken(externalId: string) {
  return api.tokenise.delete(`/token/${encodeURIComponent(externalId)}`, undefined, { schema: ZDeleteTokenResponse });
}

export function useDeleteToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
