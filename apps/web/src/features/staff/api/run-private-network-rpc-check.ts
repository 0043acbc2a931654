import { useMutation } from '@tanstack/react-query';
import { ZPrivateNetworkRpcCheck, type TPrivateNetworkRpcCheck } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/**
 * POST /api/integrate/management/private-networks/{id}/rpc-check (management-admin): the
 * submission's live RPC check run again now. A report only: the network's status does not change,
 * so nothing is refreshed after it.
 */
export function runPrivateNetworkRpcCheck(id: string): Promise<TPrivateNetworkRpcCheck> {
  return api.integrate.post(`/management/private-networks/${encodeURIComponent(id)}/rpc-check`, undefined, {
    schema: ZPrivateNetworkRpcCheck,
  });
}

export function useRunPrivateNetworkRpcCheck() {
  return useMutation({ mutationFn: runPrivateNetworkRpcCheck });
}
