import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZGettingStarted, type TGettingStarted } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /user/{id}/getting-started: the five first steps, each ticked from what the account has done. */
export function getGettingStarted(userId: string): Promise<TGettingStarted> {
  return api.connect.get(`/user/${userId}/getting-started`, { schema: ZGettingStarted });
}

/**
 * Fresh on every visit of the dashboard (staleTime 0): the steps are done on other pages, and the
 * tick must be there when the user comes back.
 */
export const getGettingStartedQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['connect', 'user', userId, 'getting-started'],
    queryFn: () => getGettingStarted(userId),
    staleTime: 0,
  });

export function useGettingStarted(userId: string) {
  return useQuery({ ...getGettingStartedQueryOptions(userId), enabled: userId !== '' });
}
