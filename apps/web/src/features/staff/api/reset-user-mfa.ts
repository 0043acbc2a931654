import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZManagementUser, type TManagedUserRef, type TManagementUser } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterUserAction } from './invalidate.ts';

/** POST /management/reset-mfa: the user sets up their authenticator again at the next sign-in. */
export function resetUserMfa(body: TManagedUserRef): Promise<TManagementUser> {
  return api.connect.post('/management/reset-mfa', body, { schema: ZManagementUser });
}

export function useResetUserMfa() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: resetUserMfa, onSuccess: () => invalidateAfterUserAction(queryClient) });
}
