import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaignDetail, type TCampaignDetail } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { managementCampaignsKey } from './get-management-campaigns.ts';

/** GET /api/campaign/management/campaigns/{id} (management-admin): the campaign with its tasks, each with its activity. */
export function getManagementCampaign(campaignId: string, signal?: AbortSignal): Promise<TCampaignDetail> {
  return api.campaign.get(`/management/campaigns/${encodeURIComponent(campaignId)}`, {
    schema: ZCampaignDetail,
    ...(signal ? { signal } : {}),
  });
}

// Under the campaigns' key: a change of a task or of the campaign refreshes it with the lists.
export const getManagementCampaignQueryOptions = (campaignId: string) =>
  queryOptions({
    queryKey: [...managementCampaignsKey, 'detail', campaignId],
    queryFn: ({ signal }) => getManagementCampaign(campaignId, signal),
  });

export function useManagementCampaign(campaignId: string) {
  return useQuery(getManagementCampaignQueryOptions(campaignId));
}
