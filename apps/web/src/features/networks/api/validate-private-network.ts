import { useMutation } from '@tanstack/react-query';
import {
  ZPrivateNetworkValidation,
  type TPrivateNetworkRequest,
  type TPrivateNetworkValidation,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** POST /private-networks/validate: the field rules and a real read of the RPC URL; nothing is saved. */
export function validatePrivateNetwork(body: TPrivateNetworkRequest): Promise<TPrivateNetworkValidation> {
  return api.integrate.post('/private-networks/validate', body, { schema: ZPrivateNetworkValidation });
}

export function useValidatePrivateNetwork() {
  return useMutation({ mutationFn: validatePrivateNetwork });
}
