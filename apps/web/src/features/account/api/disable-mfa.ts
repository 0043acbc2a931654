import { useMutation, useQueryClient } from '@tanstack/react-query';
import { disableTotp } from '../../../lib/auth.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { getMfaStatusQueryOptions } from '../../../lib/user/get-mfa-status.ts';

/**
 * Turns the authenticator off at the identity provider, then has the server re-read the MFA
 * flags (GET /user/mfa-status) and reloads the user, so the gate and this page agree.
 */
export function useDisableMfa(userUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await disableTotp();
      // staleTime 0: always asks the server, and every view of the status gets the answer.
      await queryClient.fetchQuery(getMfaStatusQueryOptions());
    },
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: currentUserQuery(userUuid).queryKey, refetchType: 'all' }),
  });
}
