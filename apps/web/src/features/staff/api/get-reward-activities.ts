import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZActivitiesResponse, type TActivity } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /api/campaign/management/activities (management-admin): the activities a task can ask for. */
export async function getRewardActivities(signal?: AbortSignal): Promise<TActivity[]> {
  const answer = await api.campaign.get('/management/activities', {
    schema: ZActivitiesResponse,
    ...(signal ? { signal } : {}),
  });
  return answer.activities;
}

export const getRewardActivitiesQueryOptions = () =>
  queryOptions({
    queryKey: ['campaign', 'management', 'activities'],
    queryFn: ({ signal }) => getRewardActivities(signal),
    // The catalogue changes with a release, not while the page is open.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useRewardActivities() {
  return useQuery(getRewardActivitiesQueryOptions());
}
