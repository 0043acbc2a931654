import { redirect } from 'react-router';
import { problemRedirectOf, type ProblemRedirect } from '../../lib/problems.ts';
import { queryClient } from '../../lib/query-client.ts';
import { session } from '../../lib/storage.ts';
import { getLocationsQueryOptions } from './api/get-locations.ts';
import { getTokensQueryOptions } from './api/get-tokens.ts';
import { tokenPaths } from './token-paths.ts';

/**
 * Where a refusal that sends the user on leads from the token pages (spec §5): no networks → My
 * networks with configureNetworks=true; no quota → Token Flow; a mainnet without a verified
 * identity (an account whose only networks are mainnets, or a mainnet chosen) → identity verification.
 */
export function redirectPath(redirect: ProblemRedirect): string {
  switch (redirect) {
    case 'configureNetworks':
      return tokenPaths.configureNetworks();
    case 'quotaReached':
      // Token Flow says why.
      return `${tokenPaths.tokenFlow()}?notice=quota`;
    case 'verifyIdentity':
      return tokenPaths.kyc();
  }
}

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
    if (allowed !== null && allowed - deployed <= 0) return redirect(redirectPath('quotaReached'));
    if (locations.length === 0) return redirect(redirectPath('configureNetworks'));
    return null;
  } catch (error) {
    const sendsOn = problemRedirectOf(error);
    // Anything else: the page loads and shows the error with a retry.
    return sendsOn ? redirect(redirectPath(sendsOn)) : null;
  }
}
