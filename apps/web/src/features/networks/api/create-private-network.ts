import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZUserNetwork, type TPrivateNetworkRequest, type TUserNetwork } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { getUserNetworksQueryOptions } from './get-user-networks.ts';

/** POST /private-networks: submits the network for review (UNDER_REVIEW). */
export function createPrivateNetwork(body: TPrivateNetworkRequest): Promise<TUserNetwork> {
  return api.integrate.post('/private-networks', body, { schema: ZUserNetwork });
}

export function useCreatePrivateNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPrivateNetwork,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getUserNetworksQueryOptions('private').queryKey }),
  });
}
