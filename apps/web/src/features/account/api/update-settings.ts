import { useMutation } from '@tanstack/react-query';
import { ZUser, type TUser, type TUserSettingsRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { setCurrentUser } from '../../../lib/current-user.ts';

/** PUT /user/settings: the promotional email preference; answers the updated user. */
export function updateSettings(body: TUserSettingsRequest): Promise<TUser> {
  return api.connect.put('/user/settings', body, { schema: ZUser });
}

export function useUpdateSettings() {
  return useMutation({ mutationFn: updateSettings, onSuccess: setCurrentUser });
}
