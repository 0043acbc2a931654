import { useMutation } from '@tanstack/react-query';
import { changePassword } from '../../../lib/auth.ts';

/** Changes the password at the identity provider (old and new, spec §7). */
export function useChangePassword() {
  return useMutation({
    mutationFn: ({ oldPassword, newPassword }: { oldPassword: string; newPassword: string }) =>
      changePassword(oldPassword, newPassword),
  });
}
