import {
  NOTIFICATION_LIST_LIMIT,
  ZNotificationSettings,
  ZNotificationsResponse,
  ZUnreadCount,
  type TNotificationSettings,
  type TNotificationsResponse,
} from '@connect/shared';
import { api } from '../api.ts';

/*
 * The notification centre's requests (packages/shared/src/notifications.ts). They live in lib/
 * rather than in a feature because the top bar, in components/, shows them.
 */

/** GET /notifications: the newest notifications with the unread count. */
export function getNotifications(signal?: AbortSignal): Promise<TNotificationsResponse> {
  return api.connect.get('/notifications', {
    query: { limit: NOTIFICATION_LIST_LIMIT },
    schema: ZNotificationsResponse,
    ...(signal ? { signal } : {}),
  });
}

/** POST /notifications/read: the given notifications, or with none all of them, are read. */
export function markNotificationsRead(ids?: string[]): Promise<{ unread: number }> {
  return api.connect.post('/notifications/read', ids ? { ids } : {}, { schema: ZUnreadCount });
}

export function getNotificationSettings(signal?: AbortSignal): Promise<TNotificationSettings> {
  return api.connect.get('/notifications/settings', { schema: ZNotificationSettings, ...(signal ? { signal } : {}) });
}

export function putNotificationSettings(settings: TNotificationSettings): Promise<TNotificationSettings> {
  return api.connect.put('/notifications/settings', settings, { schema: ZNotificationSettings });
}
