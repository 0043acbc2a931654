import { useMutation } from '@tanstack/react-query';
import { ZUser, type TUpdateUserRequest, type TUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { setCurrentUser } from '../../../lib/current-user.ts';

/** PUT /user: the whole profile; the names form sends the other fields unchanged. */
export function updateUser(body: TUpdateUserRequest): Promise<TUser> {
  return api.connect.put('/user', body, { schema: ZUser });
}

export function useUpdateUser() {
  return useMutation({ mutationFn: updateUser, onSuccess: setCurrentUser });
}
