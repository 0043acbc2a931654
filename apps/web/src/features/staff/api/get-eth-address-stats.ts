import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEthAddressStats, type TEthAddressStats } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /api/payment/management/eth-address-stats: the deposit address totals, read with page 0, size 1 (spec §9). */
export function getEthAddressStats(signal?: AbortSignal): Promise<TEthAddressStats> {
  return api.payment.get('/management/eth-address-stats', {
    query: { page: 0, size: 1 },
    schema: ZEthAddressStats,
    ...(signal ? { signal } : {}),
  });
}

export const getEthAddressStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['payment', 'management', 'eth-address-stats'],
    queryFn: ({ signal }) => getEthAddressStats(signal),
  });

export function useEthAddressStats() {
  return useQuery(getEthAddressStatsQueryOptions());
}
