import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZToken, type TToken, type TUpdateTokenRequest } from '@connect/shared';
import { z } from 'zod';
import { api } from '../../../lib/api.ts';
import { tokenKey } from './get-token.ts';
import { tokensKey } from './get-tokens.ts';

// `ZTokenResponse` of @connect/shared clashes with the OAuth token response of the same name.
const ZTokenBody = z.object({ token: ZToken });

/** PUT /token: deprecate or reactivate a token (or edit one whose wallet deployment was not sent). */
export async function updateToken(request: TUpdateTokenRequest): Promise<TToken> {
  return (await api.tokenise.put('/token', request, { schema: ZTokenBody })).token;
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
