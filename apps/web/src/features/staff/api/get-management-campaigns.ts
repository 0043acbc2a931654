import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZManagementCampaignsResponse, type TCampaignStatus, type TManagementCampaignsResponse } from '@connect/shared';
import type { StaffListWireQuery } from '../../../components/staff-list/use-staff-list-state.ts';
import { api } from '../../../lib/api.ts';

/** Every campaign query starts with this key (lists, a campaign's detail): a change to one refreshes them all. */
export const managementCampaignsKey = ['campaign', 'management', 'campaigns'] as const;

/** A tab's request: page, size and sort (`field:direction`, '' for none) and its statuses (repeated keys). */
export type ManagementCampaignsQuery = Omit<StaffListWireQuery, 'searchTerm'> & {
  status: readonly TCampaignStatus[];
};

/**
 * GET /api/campaign/management/campaigns (management-admin): one page of the campaigns in the
 * given statuses (spec §4: the all-statuses tab asks for ACTIVE, PUBLISHED and DRAFT, the
 * completed tab for COMPLETED), with totalElements for the tab's count.
 */
export function getManagementCampaigns(
  query: ManagementCampaignsQuery,
  signal?: AbortSignal,
): Promise<TManagementCampaignsResponse> {
  return api.campaign.get('/management/campaigns', {
    query: { ...query, status: [...query.status] },
    schema: ZManagementCampaignsResponse,
    ...(signal ? { signal } : {}),
  });
}

export const getManagementCampaignsQueryOptions = (query: ManagementCampaignsQuery) =>
  queryOptions({
    queryKey: [...managementCampaignsKey, 'list', query],
    queryFn: ({ signal }) => getManagementCampaigns(query, signal),
    // Another page, size or sort keeps the rows on screen until the next arrive.
    placeholderData: keepPreviousData,
  });

export function useManagementCampaigns(query: ManagementCampaignsQuery) {
  return useQuery(getManagementCampaignsQueryOptions(query));
}
