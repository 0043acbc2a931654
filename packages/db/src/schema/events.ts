import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, users } from './portal.ts';

/**
 * The outbox of domain events (ARCHITECTURE.md, "Events and jobs"): written in the same
 * transaction as the change it announces, delivered at least once to each subscriber by the
 * dispatcher. `seq` orders delivery; `lockedUntil` is the lease of the node delivering it.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    accountId: uuid('account_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  // Only what is still to deliver is indexed; delivered rows are history.
  (t) => [
    index('outbox_events_pending_idx')
      .on(t.availableAt, t.seq)
      .where(sql`dispatched_at is null`),
  ],
);

/**
 * What each subscriber has done: (subscriber, event id), written in the same transaction as the
 * subscriber's own work, so its effect happens once across retries, restarts and nodes.
 */
export const eventDeliveries = pgTable(
  'event_deliveries',
  {
    subscriber: text('subscriber').notNull(),
    eventId: uuid('event_id').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.subscriber, t.eventId] })],
);

/** In-app notifications (the bell in the top bar), one row per user, fed by events. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** What it is about, e.g. `token.failed`; the SPA picks its icon from it. */
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A portal path to open (e.g. the token's page). */
    link: text('link'),
    /** The event that caused it: a user gets one notification per event. */
    eventId: uuid('event_id'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('notifications_event_idx').on(t.userId, t.eventId),
  ],
);

/** A user's notification settings: whether notifications are also emailed. */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailEnabled: boolean('email_enabled').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
