import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZManagementUser, type TManagementUser, type TUpdateManagedUserRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterUserAction } from './invalidate.ts';

/** PUT /management/user: name, role (staff roles for staff, customer roles for customers) and organisation. */
export function updateManagedUser(body: TUpdateManagedUserRequest): Promise<TManagementUser> {
  return api.connect.put('/management/user', body, { schema: ZManagementUser });
}

export function useUpdateManagedUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateManagedUser, onSuccess: () => invalidateAfterUserAction(queryClient) });
}
