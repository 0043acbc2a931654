import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZManagementUser, type TManagedUserRef, type TManagementUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterUserAction } from './invalidate.ts';

/** POST /management/user/restore: a removed user ACTIVE again, their account reopened. */
export function restoreUser(body: TManagedUserRef): Promise<TManagementUser> {
  return api.connect.post('/management/user/restore', body, { schema: ZManagementUser });
}

export function useRestoreUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: restoreUser, onSuccess: () => invalidateAfterUserAction(queryClient) });
}
