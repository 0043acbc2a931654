import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZManagementUser, type TManagedUserRef, type TManagementUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterUserAction } from './invalidate.ts';

/** DELETE /management/user: marks the user REMOVED (with who removed them) and ends their sessions. */
export function removeUser(body: TManagedUserRef): Promise<TManagementUser> {
  return api.connect.delete('/management/user', body, { schema: ZManagementUser });
}

export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeUser, onSuccess: () => invalidateAfterUserAction(queryClient) });
}
