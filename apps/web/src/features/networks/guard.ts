import { redirect } from 'react-router';
import { paths } from '../../config/paths.ts';
import { currentUserQuery } from '../../lib/current-user.ts';
import { queryClient } from '../../lib/query-client.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { session } from '../../lib/storage.ts';

/** Where the select-networks guard sends a user whose identity is not verified (spec §5). */
export function kycRedirectPath(slug = runtimeConfig().productSlug): string {
  return `${paths.flows(slug)}/kyc?selectNetworks=true`;
}

/**
 * The guard of /my-networks/select-new-networks (spec §5): without a verified identity the user
 * goes to the identity verification page with selectNetworks=true. A cached "not verified" is
 * read again first, so a user who has just been verified is not sent back to verify.
 */
export async function selectNetworksGuard(): Promise<Response | null> {
  const userUuid = session.userUuid();
  // No session: the root gate sends the user to /login.
  if (!userUuid) return null;
  let user = await queryClient.fetchQuery(currentUserQuery(userUuid));
  if (user.onfidoApplicantStatus !== 'VERIFIED') {
    user = await queryClient.fetchQuery({ ...currentUserQuery(userUuid), staleTime: 0 });
  }
  return user.onfidoApplicantStatus === 'VERIFIED' ? null : redirect(kycRedirectPath());
}
