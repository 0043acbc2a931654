import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ZManagementPrivateNetwork,
  ZManagementPrivateNetworksResponse,
  type TManagementPrivateNetwork,
  type TManagementPrivateNetworksResponse,
  type TPrivateNetworkStatus,
} from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { useStaffListQuery } from '../../../components/staff-list/use-staff-list-query.ts';
import { api } from '../../../lib/api.ts';

/** Every private-network review query starts with this key: a decision refreshes the list, its counts and the open network. */
export const privateNetworkReviewsKey = ['integrate', 'management', 'private-networks'] as const;

export type PrivateNetworkReviewsQuery = StaffListWireQuery & { status: TPrivateNetworkStatus; cursor?: string };

/**
 * GET /api/integrate/management/private-networks (management-admin): one page of the networks of a
 * status, with every status's count for the tabs (issue 33 §4).
 */
export function getPrivateNetworkReviews(
  query: PrivateNetworkReviewsQuery,
  signal?: AbortSignal,
): Promise<TManagementPrivateNetworksResponse> {
  return api.integrate.get('/management/private-networks', {
    query,
    schema: ZManagementPrivateNetworksResponse,
    ...(signal ? { signal } : {}),
  });
}

export function usePrivateNetworkReviews(query: Omit<PrivateNetworkReviewsQuery, 'cursor'>) {
  return useStaffListQuery({
    queryKey: [...privateNetworkReviewsKey, 'list', query],
    fetchPage: (cursor, signal) => getPrivateNetworkReviews({ ...query, ...(cursor ? { cursor } : {}) }, signal),
  });
}

/** GET /api/integrate/management/private-networks/{id}: one network as it stands now (the details panel). */
export function getPrivateNetworkReview(id: string, signal?: AbortSignal): Promise<TManagementPrivateNetwork> {
  return api.integrate.get(`/management/private-networks/${encodeURIComponent(id)}`, {
    schema: ZManagementPrivateNetwork,
    ...(signal ? { signal } : {}),
  });
}

export const getPrivateNetworkReviewQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...privateNetworkReviewsKey, 'network', id],
    queryFn: ({ signal }) => getPrivateNetworkReview(id, signal),
  });

/** The open network, shown at once as the list row it was opened from, then as the server has it now. */
export function usePrivateNetworkReview(network: TManagementPrivateNetwork) {
  return useQuery({ ...getPrivateNetworkReviewQueryOptions(network.id), placeholderData: network });
}
