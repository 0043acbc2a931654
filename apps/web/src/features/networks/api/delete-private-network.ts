import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZUserNetwork, type TUserNetwork } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { getUserNetworksQueryOptions } from './get-user-networks.ts';

/** DELETE /private-networks (id in the body): requests the removal; staff complete it later. */
export function deletePrivateNetwork(id: string): Promise<TUserNetwork> {
  return api.integrate.delete('/private-networks', { id }, { schema: ZUserNetwork });
}

export function useDeletePrivateNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePrivateNetwork,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getUserNetworksQueryOptions('private').queryKey }),
  });
}
