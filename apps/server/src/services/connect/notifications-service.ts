import type { TNotification, TNotificationSettings, TNotificationsResponse } from '@connect/shared';
import { problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { NotificationRepository, NotificationRow } from './notifications-repository.ts';

function toNotification(row: NotificationRow): TNotification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

/**
 * The notification centre (the bell in the top bar): the caller's own notifications, written by
 * the subscribers of notification-subscribers.ts, and whether they are emailed too.
 */
export class NotificationService {
  constructor(private readonly repo: NotificationRepository) {}

  async list(caller: PortalUser, limit: number): Promise<TNotificationsResponse> {
    const [rows, unread] = await Promise.all([this.repo.newest(caller.id, limit), this.repo.unreadCount(caller.id)]);
    return { items: rows.map(toNotification), unread };
  }

  /**
   * Marks the given notifications read, or with none given all of them; answers the unread count
   * left. An id that is not the caller's refuses the whole request (404) and marks nothing.
   */
  async markRead(caller: PortalUser, ids?: string[]): Promise<{ unread: number }> {
    if (ids) {
      const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
      if (distinct.length && (await this.repo.countOwned(caller.id, distinct)) < distinct.length) {
        throw problem('NOTIFICATION_NOT_FOUND');
      }
      if (distinct.length) await this.repo.markRead(caller.id, distinct);
    } else {
      await this.repo.markRead(caller.id);
    }
    return { unread: await this.repo.unreadCount(caller.id) };
  }

  async settings(caller: PortalUser): Promise<TNotificationSettings> {
    return { emailEnabled: await this.repo.isEmailEnabled(caller.id) };
  }

  async saveSettings(caller: PortalUser, settings: TNotificationSettings): Promise<TNotificationSettings> {
    await this.repo.setEmailEnabled(caller.id, settings.emailEnabled);
    return this.settings(caller);
  }
}
