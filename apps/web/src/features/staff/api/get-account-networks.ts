import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZManagementNetworksResponse, type ApplicationType, type TApplicationNetwork } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementApplicationsKey } from './get-management-applications.ts';

/**
 * GET /management/networks/{accountId}/{networkType} (spec §7): the networks the account activated
 * of the type, as its users' own registration lists them — what an application for them may use.
 */
export async function getAccountNetworks(
  accountId: string,
  networkType: ApplicationType,
  signal?: AbortSignal,
): Promise<TApplicationNetwork[]> {
  const answer = await api.applicationManager.get(
    `/management/networks/${encodeURIComponent(accountId)}/${networkType}`,
    { schema: ZManagementNetworksResponse, ...(signal ? { signal } : {}) },
  );
  return answer.networks;
}

export const getAccountNetworksQueryOptions = (accountId: string, networkType: ApplicationType) =>
  queryOptions({
    queryKey: [...managementApplicationsKey, 'account-networks', accountId, networkType],
    queryFn: ({ signal }) => getAccountNetworks(accountId, networkType, signal),
  });

/** Asked once a user is chosen (`accountId` known). */
export function useAccountNetworks(accountId: string | undefined, networkType: ApplicationType) {
  return useQuery({ ...getAccountNetworksQueryOptions(accountId ?? '', networkType), enabled: Boolean(accountId) });
}
