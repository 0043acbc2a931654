import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_POLL_MS, type TNotificationSettings, type TNotificationsResponse } from '@connect/shared';
import { getNotificationSettings, getNotifications, markNotificationsRead, putNotificationSettings } from './api.ts';

/**
 * The bell's one query: the list and the unread count come in one answer, so the poll that keeps
 * the badge current also has the list ready when the bell opens. TanStack Query polls only while
 * the tab is visible (refetchIntervalInBackground is off), and asks again when the tab comes back.
 * The cache is cleared on sign-out, so the key needs no user id.
 */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: ['connect', 'notifications'],
    queryFn: ({ signal }) => getNotifications(signal),
    staleTime: NOTIFICATION_POLL_MS,
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });

export const notificationSettingsQuery = () =>
  queryOptions({
    queryKey: ['connect', 'notification-settings'],
    queryFn: ({ signal }) => getNotificationSettings(signal),
    staleTime: Infinity,
  });

/** The list with the given notifications (all when `ids` is undefined) read and the server's count. */
export function withRead(
  data: TNotificationsResponse,
  ids: string[] | undefined,
  unread: number,
  now: Date,
): TNotificationsResponse {
  const readAt = now.toISOString();
  return {
    unread,
    items: data.items.map((item) =>
      item.readAt === null && (ids === undefined || ids.includes(item.id)) ? { ...item, readAt } : item,
    ),
  };
}

/**
 * Marks notifications read (`undefined`: all). The list shows them read at once; the server's
 * answer sets the count, and a failure puts the list back as the server has it.
 */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  const { queryKey } = notificationsQuery();
  return useMutation({
    mutationFn: (ids: string[] | undefined) => markNotificationsRead(ids),
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey, exact: true });
      const previous = queryClient.getQueryData(queryKey);
      if (previous) {
        const marked = previous.items.filter(
          (item) => item.readAt === null && (ids === undefined || ids.includes(item.id)),
        ).length;
        const unread = ids === undefined ? 0 : Math.max(0, previous.unread - marked);
        queryClient.setQueryData(queryKey, withRead(previous, ids, unread, new Date()));
      }
    },
    onSuccess: ({ unread }) => {
      queryClient.setQueryData(queryKey, (current) => (current ? { ...current, unread } : current));
    },
    onError: () => queryClient.invalidateQueries({ queryKey, exact: true }),
  });
}

/** Saves the email preference; the switch shows the new state at once and the old one on failure. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  const { queryKey } = notificationSettingsQuery();
  return useMutation({
    mutationFn: (settings: TNotificationSettings) => putNotificationSettings(settings),
    onMutate: async (settings) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, settings);
      return { previous };
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKey, saved),
    onError: (_error, _settings, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
  });
}
