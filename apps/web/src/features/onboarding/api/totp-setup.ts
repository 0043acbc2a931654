import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { finishTotpSetup, startTotpSetup } from '../../../lib/auth.ts';
import { currentUserQuery } from '../../../lib/current-user.ts';
import { getMfaStatusQueryOptions } from '../../../lib/user/get-mfa-status.ts';

const TOTP_SETUP_KEY = ['identity', 'totp-setup'] as const;

/**
 * The authenticator secret for this session. As a query it is asked for once even when React
 * mounts the page twice: every set-up call makes a new secret and only the last one verifies,
 * so a second call would leave the QR code on screen useless.
 */
export const getTotpSetupQueryOptions = (email: string, issuer: string) =>
  queryOptions({
    queryKey: [...TOTP_SETUP_KEY, email],
    queryFn: () => startTotpSetup(email, issuer),
    staleTime: Infinity,
    // Dropped a few seconds after the page closes, so a later visit (after disabling MFA) asks
    // for a new secret, while React's double mount in development still reuses this one.
    gcTime: 5_000,
    retry: false,
  });

export function useTotpSetup(email: string | undefined, issuer: string) {
  return useQuery({ ...getTotpSetupQueryOptions(email ?? '', issuer), enabled: Boolean(email) });
}

/**
 * Verifies the first code and makes TOTP preferred, then has the server copy the identity
 * provider's flags onto the portal user and reloads that user, so the gate sees MFA as set up.
 */
export function useFinishTotpSetup(userUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => {
      await finishTotpSetup(code);
      return queryClient.fetchQuery(getMfaStatusQueryOptions());
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: currentUserQuery(userUuid).queryKey, refetchType: 'all' });
      // Not removeQueries here: the page is still mounted, and removing its query would start a
      // new set-up at once (a fresh secret that replaces the one just verified).
    },
  });
}
