import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ZAvailableFeatures,
  ZRoutesResponse,
  ZUser,
  type RouteItem,
  type TAvailableFeatures,
  type TUser,
} from '@connect/shared';
import { api } from './api.ts';
import { queryClient } from './query-client.ts';
import { session } from './storage.ts';

/** The signed-in user (spec §3), loaded once per session and refreshed after changes. */
export const currentUserQuery = (userUuid: string) =>
  queryOptions({
    queryKey: ['connect', 'user', userUuid],
    queryFn: (): Promise<TUser> => api.connect.get(`/user/${userUuid}`, { schema: ZUser }),
    staleTime: Infinity,
  });

/** The role-based route list (spec §4 step 4): what this user may see and reach. */
export const userRoutesQuery = (userUuid: string) =>
  queryOptions({
    queryKey: ['connect', 'user-routes', userUuid],
    queryFn: async (): Promise<RouteItem[]> =>
      (await api.connect.get('/user/routes', { schema: ZRoutesResponse })).routes,
    staleTime: Infinity,
  });

export const availableFeaturesQuery = (userUuid: string) =>
  queryOptions({
    queryKey: ['connect', 'available', userUuid],
    queryFn: async (): Promise<TAvailableFeatures> =>
      (await api.connect.get('/available', { schema: ZAvailableFeatures })).availableFeatures,
    staleTime: 60_000,
  });

/** Stores the session marker once the user is known (spec §4: role and user id). */
export async function startSession(userUuid: string): Promise<TUser> {
  const user = await queryClient.fetchQuery(currentUserQuery(userUuid));
  session.setMarker(userUuid, user.role);
  return user;
}

/** Puts a user the server just returned (after PUT /user etc.) in place, so guards see it at once. */
export function setCurrentUser(user: TUser): void {
  queryClient.setQueryData(currentUserQuery(user.id).queryKey, user);
}

/** The signed-in user; the gate has loaded it before any signed-in page renders. */
export function useCurrentUser() {
  const userUuid = session.userUuid() ?? '';
  return useQuery({ ...currentUserQuery(userUuid), enabled: userUuid !== '' });
}
