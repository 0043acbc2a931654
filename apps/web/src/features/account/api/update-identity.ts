import { useMutation } from '@tanstack/react-query';
import { ZUser, type TUpdateIdentityRequest, type TUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { setCurrentUser } from '../../../lib/current-user.ts';

/** PUT /user/identity: the first and last name alone (the identity pool holds them too). */
export function updateIdentity(body: TUpdateIdentityRequest): Promise<TUser> {
  return api.connect.put('/user/identity', body, { schema: ZUser });
}

export function useUpdateIdentity() {
  return useMutation({ mutationFn: updateIdentity, onSuccess: setCurrentUser });
}
