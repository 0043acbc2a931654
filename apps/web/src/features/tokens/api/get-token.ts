import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZTokenDetails, type TTokenDetails } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /token/{id}: one token with its tier's functions, explorer links and the figures read live
 * from the chain (total supply, and the balance of `holder` — the connected wallet when there is
 * one, else the supply holder).
 */
export function getToken(id: string, holder?: string): Promise<TTokenDetails> {
  return api.tokenise.get(`/token/${encodeURIComponent(id)}`, { query: { holder }, schema: ZTokenDetails });
}

export const tokenKey = (id: string) => ['tokenise', 'token', id] as const;

export const getTokenQueryOptions = (id: string, holder?: string) =>
  queryOptions({
    queryKey: [...tokenKey(id), holder ?? null],
    queryFn: () => getToken(id, holder),
    // Pending: follow the deployment; on chain: keep the supply live.
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? 2000 : 15_000),
  });

export function useToken(id: string, holder?: string) {
  return useQuery({ ...getTokenQueryOptions(id, holder), enabled: id !== '' });
}
