import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZTreasury, type TTreasury } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /api/campaign/management/reward/treasury (management-admin): the address claims are paid
 * from, its QNT on chain, and what published campaigns and unpaid claims still promise. 503
 * TREASURY_UNAVAILABLE when the chain cannot be read.
 */
export function getRewardTreasury(signal?: AbortSignal): Promise<TTreasury> {
  return api.campaign.get('/management/reward/treasury', { schema: ZTreasury, ...(signal ? { signal } : {}) });
}

export const getRewardTreasuryQueryOptions = () =>
  queryOptions({
    queryKey: ['campaign', 'management', 'treasury'],
    queryFn: ({ signal }) => getRewardTreasury(signal),
    // A chain that cannot be read says so at once: the page still works without the figures.
    retry: false,
  });

export function useRewardTreasury() {
  return useQuery(getRewardTreasuryQueryOptions());
}
