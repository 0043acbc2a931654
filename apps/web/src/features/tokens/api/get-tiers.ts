import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZTiersResponse, type TTierCard, type TTokenType } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /v2/orchestration/tiers: the tier cards of a token type on a network, sorted and with their
 * short function lists (spec §4). Asked for platform deployments, which every offered tier allows;
 * each card says whether a wallet deployment is offered too (bytecodeCredits).
 */
export async function getTiers(networkId: string, tokenType: TTokenType): Promise<TTierCard[]> {
  const body = await api.tokenise.get('/v2/orchestration/tiers', {
    query: { networkId, tokenType, deploymentType: 'QUANT' },
    schema: ZTiersResponse,
  });
  return body.tiers;
}

export const getTiersQueryOptions = (networkId: string, tokenType: TTokenType) =>
  queryOptions({
    queryKey: ['tokenise', 'tiers', networkId, tokenType],
    queryFn: () => getTiers(networkId, tokenType),
    staleTime: 60_000,
  });

export function useTiers(networkId: string | null, tokenType: TTokenType | null) {
  return useQuery({
    ...getTiersQueryOptions(networkId ?? '', tokenType ?? 'QRC20'),
    enabled: Boolean(networkId && tokenType),
  });
}
