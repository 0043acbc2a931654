import {
  ZMarkNotificationsReadRequest,
  ZNotificationSettings,
  ZNotificationsQuery,
  ZNotificationsResponse,
  ZProblem,
  ZUnreadCount,
} from '@connect/shared';
import type { App, Deps } from '../../types.ts';
import { liveRoutes } from './live-routes.ts';
import { NotificationRepository } from './notifications-repository.ts';
import { NotificationService } from './notifications-service.ts';
import { callerOf } from '../../lib/caller.ts';

const docs = { tags: ['connect'], security: [{ bearerAuth: [] }] };
const problems = { '4xx': ZProblem };

/** The notification centre (packages/shared/src/notifications.ts): the caller's notifications and their settings. */
export async function notificationsRoutes(app: App, deps: Deps) {
  const service = new NotificationService(new NotificationRepository(deps.db));
  // The account's changes pushed to its open pages (the bell among them).
  await liveRoutes(app, deps);

  app.get(
    '/notifications',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'The caller’s newest notifications and how many are unread',
        description:
          'Newest first, at most `limit` (default 20, up to 100). `unread` counts all of the caller’s unread notifications, not only those listed. The top bar polls this for its badge.',
        querystring: ZNotificationsQuery,
        response: { 200: ZNotificationsResponse, ...problems },
      },
    },
    async (request) => service.list(callerOf(request), request.query.limit),
  );

  app.post(
    '/notifications/read',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Mark notifications as read',
        description:
          'Marks the notifications of `ids` read, or, without `ids`, all of the caller’s; answers the unread count left. An id that is not one of the caller’s notifications answers 404 and marks nothing.',
        body: ZMarkNotificationsReadRequest,
        response: { 200: ZUnreadCount, ...problems },
      },
    },
    async (request) => service.markRead(callerOf(request), request.body.ids),
  );

  app.get(
    '/notifications/settings',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Whether the caller’s notifications are also emailed',
        description: 'Off until the caller switches it on.',
        response: { 200: ZNotificationSettings, ...problems },
      },
    },
    async (request) => service.settings(callerOf(request)),
  );

  app.put(
    '/notifications/settings',
    {
      config: { access: 'user' },
      schema: {
        ...docs,
        summary: 'Switch emailed notifications on or off',
        description: 'Notifications written after the change follow it; the in-app list is kept either way.',
        body: ZNotificationSettings,
        response: { 200: ZNotificationSettings, ...problems },
      },
    },
    async (request) => service.saveSettings(callerOf(request), request.body),
  );
}
