import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZActivateNetworksResponse, type TActivateNetworksResponse } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { environmentNetworksKey } from './get-environment-networks.ts';
import { getNetworkCatalogueQueryOptions } from './get-network-catalogue.ts';
import { userNetworksKey } from './get-user-networks.ts';

/** POST /v2/networks: activates the selected networks, all or none. */
export function activateNetworks(networkIds: string[]): Promise<TActivateNetworksResponse> {
  return api.integrate.post('/v2/networks', { networkIds }, { schema: ZActivateNetworksResponse });
}

export function useActivateNetworks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateNetworks,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: getNetworkCatalogueQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: userNetworksKey }),
        queryClient.invalidateQueries({ queryKey: environmentNetworksKey }),
      ]);
    },
  });
}
