import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './portal.ts';

/**
 * The one staff-alert channel (issue 27 §4; apps/server/src/repositories/staff-alerts.ts): what
 * happened that staff must look at (a `code` and a readable `message`), which record it concerns
 * (`recordType` + `recordId`, e.g. `qnt_transfer` and its id), when, and who acknowledged it and
 * when. `dedupeKey` makes raising idempotent: the same cause raised again (a retry, a second node)
 * adds nothing. Raising also mails the configured address (STAFF_ALERT_EMAIL).
 */
export const staffAlerts = pgTable(
  'staff_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    message: text('message').notNull(),
    recordType: text('record_type'),
    recordId: text('record_id'),
    dedupeKey: text('dedupe_key').unique(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('staff_alerts_raised_idx').on(t.raisedAt),
    index('staff_alerts_open_idx')
      .on(t.raisedAt)
      .where(sql`acknowledged_at is null`),
  ],
);
