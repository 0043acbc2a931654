import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZTokenResult, type TToken, type TUpdateTokenRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { tokenKey } from './get-token.ts';
import { tokensKey } from './get-tokens.ts';

/** PUT /token: deprecate or reactivate a token (the answer also carries a wallet deployment; not used here). */
export async function updateToken(request: TUpdateTokenRequest): Promise<TToken> {
  return (await api.tokenise.put('/token', request, { schema: ZTokenResult })).token;
}

export function useUpdateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateToken,
    onSuccess: async (token) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: tokensKey }),
        queryClient.invalidateQueries({ queryKey: tokenKey(token.id) }),
      ]);
    },
  });
}
