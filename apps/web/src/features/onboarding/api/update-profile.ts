import { useMutation } from '@tanstack/react-query';
import { ZUser, type TUpdateUserRequest, type TUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { setCurrentUser } from '../../../lib/current-user.ts';

/** PUT /user: the profile of /user-details; answers the updated user. */
export function updateProfile(body: TUpdateUserRequest): Promise<TUser> {
  return api.connect.put('/user', body, { schema: ZUser });
}

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile, onSuccess: setCurrentUser });
}
