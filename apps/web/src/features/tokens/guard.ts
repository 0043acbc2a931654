import { redirect } from 'react-router';
import { KYC_MESSAGES, tokenGuardOf } from '@connect/shared';
import { ApiError } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/storage.ts';
import { getLocationsQueryOptions } from './api/get-locations.ts';
import { getTokensQueryOptions } from './api/get-tokens.ts';
import { tokenPaths } from './token-paths.ts';

/**
 * The server's "mainnets need a verified identity" problem (an account whose only networks are
 * mainnets, or a mainnet chosen, without a verified identity): the SPA goes to identity verification.
 */
export function isIdentityProblem(body: unknown): boolean {
  const problem = body as { status?: number; detail?: string } | null | undefined;
  return (
    problem?.status === 409 &&
    (problem.detail === KYC_MESSAGES.mainnetRequiresVerification ||
      problem.detail === KYC_MESSAGES.mainnetVerificationPending)
  );
}

/** Where the creation guard sends a user without quota: Token Flow, which says why. */
export const quotaRedirectPath = () => `${tokenPaths.tokenFlow()}?notice=quota`;

/**
 * The guards of /{product}-flows/token-flow/deploy/create-new-smart-contract (spec §5): no
 * tokens:create quota left (total − used ≤ 0) → back to Token Flow; no networks configured → My
 * networks with configureNetworks=true (which says 'Please configure your networks before you can
 * deploy tokens'). Both are read fresh: a user who has just added a network is not sent back.
 * A user whose only networks are mainnets, without a verified identity, goes to identity
 * verification; choosing a mainnet later in the stepper does the same.
 */
export async function createSmartContractGuard(): Promise<Response | null> {
  // No session: the root gate sends the user to /login.
  if (!session.userUuid()) return null;
  try {
    const [tokens, locations] = await Promise.all([
      queryClient.fetchQuery({ ...getTokensQueryOptions({ page: 0, size: 5 }), staleTime: 0 }),
      queryClient.fetchQuery({ ...getLocationsQueryOptions(), staleTime: 0 }),
    ]);
    const { allowed, deployed } = tokens.quota;
    if (allowed !== null && allowed - deployed <= 0) return redirect(quotaRedirectPath());
    if (locations.length === 0) return redirect(tokenPaths.configureNetworks());
    return null;
  } catch (error) {
    if (error instanceof ApiError) {
      const guard = tokenGuardOf(error.body as { status?: number; detail?: string });
      if (guard === 'quotaReached') return redirect(quotaRedirectPath());
      if (guard === 'configureNetworks') return redirect(tokenPaths.configureNetworks());
      // Spec §5: mainnet use of tokens requires completed identity verification.
      if (isIdentityProblem(error.body)) return redirect(tokenPaths.kyc());
    }
    // Anything else: the page loads and shows the error with a retry.
    return null;
  }
}
