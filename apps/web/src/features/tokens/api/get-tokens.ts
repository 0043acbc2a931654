import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZTokensPage, type TTokensPage, type TTokensRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** POST /tokens: one page of the account's tokens with search and filters, plus quota and credits. */
export function getTokens(request: TTokensRequest): Promise<TTokensPage> {
  return api.tokenise.post('/tokens', request, { schema: ZTokensPage });
}

/** The key prefix of every token list, to refresh them all after a change. */
export const tokensKey = ['tokenise', 'tokens'] as const;

export const getTokensQueryOptions = (request: TTokensRequest) =>
  queryOptions({
    queryKey: [...tokensKey, request],
    queryFn: () => getTokens(request),
    placeholderData: keepPreviousData,
    // Pending deployments turn Active (or Failed) on the server: keep the list fresh while one runs.
    refetchInterval: (query) => (query.state.data?.content.some((token) => token.status === 'PENDING') ? 4000 : false),
  });

export function useTokens(request: TTokensRequest) {
  return useQuery(getTokensQueryOptions(request));
}
