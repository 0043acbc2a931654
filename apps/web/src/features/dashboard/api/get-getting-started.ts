import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZGettingStarted, type TGettingStarted } from '@connect/shared';
import { api } from '../../../lib/api.ts';

/** GET /user/{id}/getting-started: the five first steps, each ticked from what the account has done. */
export function getGettingStarted(userId: string): Promise<TGettingStarted> {
  return api.connect.get(`/user/${userId}/getting-started`, { schema: ZGettingStarted });
}

/**
 * Fresh on every visit of the dashboard: the steps are done on other pages, and the tick must be
 * there when the user comes back. The gate asks for it on every navigation to the dashboard
 * (api/prefetch.ts, whatever its age); the page, mounting a moment later, takes that answer for
 * a few seconds rather than asking again.
 */
export const getGettingStartedQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['connect', 'user', userId, 'getting-started'],
    queryFn: () => getGettingStarted(userId),
    staleTime: 5_000,
  });

export function useGettingStarted(userId: string) {
  return useQuery({ ...getGettingStartedQueryOptions(userId), enabled: userId !== '' });
}
