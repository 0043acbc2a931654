import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZAccountEthAddress, type TAccountEthAddress } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * GET /api/payment/management/account/{accountId}/eth-address (admin only): the account's QNT
 * deposit address. The server allocates one when the account has none yet, so it is asked for
 * only when a customer user's details are opened, never for a whole page of rows.
 */
export function getAccountEthAddress(accountId: string, signal?: AbortSignal): Promise<TAccountEthAddress> {
  return api.payment.get(`/management/account/${encodeURIComponent(accountId)}/eth-address`, {
    schema: ZAccountEthAddress,
    ...(signal ? { signal } : {}),
  });
}

export const getAccountEthAddressQueryOptions = (accountId: string) =>
  queryOptions({
    queryKey: ['payment', 'management', 'eth-address', accountId],
    queryFn: ({ signal }) => getAccountEthAddress(accountId, signal),
    // An allocated address does not change.
    staleTime: Infinity,
  });

export function useAccountEthAddress(accountId: string, enabled: boolean) {
  return useQuery({ ...getAccountEthAddressQueryOptions(accountId), enabled });
}
