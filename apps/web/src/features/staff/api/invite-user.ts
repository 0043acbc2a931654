import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZManagementUser, type TInviteUserRequest, type TManagementUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterUserAction } from './invalidate.ts';

/** POST /management/user/invite: the invitee gets an email with a temporary password (201, the new PENDING user). */
export function inviteUser(body: TInviteUserRequest): Promise<TManagementUser> {
  return api.connect.post('/management/user/invite', body, { schema: ZManagementUser });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => invalidateAfterUserAction(queryClient),
  });
}
