import { and, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { invoices, networks, notifications, notificationSettings, orders, users, type Database } from '@connect/db';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = Pick<
  NotificationRow,
  'userId' | 'accountId' | 'kind' | 'title' | 'body' | 'link' | 'eventId'
>;
/** A member of an account who may be notified, with where and whether to email them. */
export type Recipient = { id: string; email: string; emailEnabled: boolean };

/**
 * The only code that touches `notifications` and `notification_settings`. Every read and write of
 * a user's notifications takes the user's id, so another user's rows are as good as unknown.
 * Built over the database or a subscriber's transaction.
 */
export class NotificationRepository {
  constructor(private readonly db: Database) {}

  /** The user's newest notifications, newest first. */
  async newest(userId: string, limit: number): Promise<NotificationRow[]> {
    return this.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit);
  }

  async unreadCount(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ unread: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
    return row?.unread ?? 0;
  }

  /** How many of `ids` are the user's. */
  async countOwned(userId: string, ids: string[]): Promise<number> {
    const [row] = await this.db
      .select({ owned: count() })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)));
    return row?.owned ?? 0;
  }

  /** Marks the user's unread notifications read: those of `ids`, or all of them. */
  async markRead(userId: string, ids?: string[]): Promise<void> {
    await this.db
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(
        and(
          eq(notifications.userId, userId),
          isNull(notifications.readAt),
          ids ? inArray(notifications.id, ids) : undefined,
        ),
      );
  }

  /** Whether the user's notifications are emailed too (off until they switch it on). */
  async isEmailEnabled(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ emailEnabled: notificationSettings.emailEnabled })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, userId));
    return row?.emailEnabled ?? false;
  }

  async setEmailEnabled(userId: string, emailEnabled: boolean): Promise<void> {
    await this.db
      .insert(notificationSettings)
      .values({ userId, emailEnabled })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: { emailEnabled, updatedAt: sql`now()` } });
  }

  /** The account's members who are not removed, with their email settings. */
  async members(accountId: string): Promise<Recipient[]> {
    const rows = await this.db
      .select({ id: users.id, email: users.email, emailEnabled: notificationSettings.emailEnabled })
      .from(users)
      .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
      .where(and(eq(users.accountId, accountId), ne(users.status, 'REMOVED')))
      .orderBy(users.createdAt, users.id);
    return rows.map((row) => ({ ...row, emailEnabled: row.emailEnabled ?? false }));
  }

  /** Writes notifications; one per user and event, so a second delivery of the event writes none. */
  async add(rows: NewNotification[]): Promise<void> {
    if (!rows.length) return;
    await this.db.insert(notifications).values(rows).onConflictDoNothing();
  }

  /** What a billing notice tells of an order: what it bought, how it is paid, and its invoice (null when gone). */
  async orderFacts(orderId: string) {
    const [row] = await this.db
      .select({
        kind: orders.kind,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        credits: orders.credits,
        totalGbpMinor: orders.totalGbpMinor,
        dueAt: orders.dueAt,
        invoiceId: invoices.id,
        invoiceNumber: invoices.number,
      })
      .from(orders)
      .leftJoin(invoices, eq(invoices.orderId, orders.id))
      .where(eq(orders.id, orderId))
      .orderBy(desc(invoices.createdAt))
      .limit(1);
    return row ?? null;
  }

  /** A catalogue network's name, for a notification's text (null when it is gone). */
  async networkName(networkId: string): Promise<string | null> {
    const [row] = await this.db.select({ name: networks.name }).from(networks).where(eq(networks.id, networkId));
    return row?.name ?? null;
  }
}
