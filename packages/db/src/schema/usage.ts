import { bigint, date, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TMethodClass, TUsageSource } from '@connect/shared';
import { networks } from './developer-hub.ts';
import { accounts } from './portal.ts';

/**
 * The gateway's counters (issue 17 §1): JSON-RPC calls per application, network, method and UTC
 * hour, with their price in micro-credits at the time they were counted (METHOD_PRICES_MICRO).
 * Every node adds its flush to them (`on conflict do update set calls = calls + …`, one statement
 * per flush, never one per call), so they hold the calls of all nodes, the open hour included.
 * They are the live figures; usage_records are what the ledger was charged from.
 */
export const gatewayUsageHourly = pgTable(
  'gateway_usage_hourly',
  {
    /** No foreign key: a deleted application's calls not yet charged are still charged, and its history stays. */
    applicationId: uuid('application_id').notNull(),
    networkId: uuid('network_id')
      .notNull()
      .references(() => networks.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    calls: bigint('calls', { mode: 'number' }).notNull(),
    microCredits: bigint('micro_credits', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.applicationId, t.networkId, t.method, t.hour] }),
    index('gateway_usage_hourly_account_idx').on(t.accountId, t.hour),
    index('gateway_usage_hourly_hour_idx').on(t.hour),
  ],
);

/**
 * Per application and UTC month, the micro-credits its gateway calls cost so far (added by the same
 * flush statement as the counters): what its monthly spending cap is checked against without
 * summing the month's counters on every flush.
 */
export const applicationMonthSpend = pgTable(
  'application_month_spend',
  {
    /** No foreign key, as the counters: the flush's join with applications drops a deleted one's later counts. */
    applicationId: uuid('application_id').notNull(),
    /** The first day of the UTC month. */
    month: date('month', { mode: 'string' }).notNull(),
    microCredits: bigint('micro_credits', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.month] })],
);

/**
 * Every credit used, traced to its source (issue 17 §1): immutable rows with a stable id built
 * from the source, stored once (`on conflict (id) do nothing`), so replaying a close or a
 * settlement changes nothing. A correction is a new row (negative for a refund), never an edit.
 *
 * - GATEWAY `gateway:<application>:<network>:<method>:<hour ISO>` for a closed hour's calls, and
 *   `…:+<calls counted by then>` for calls counted after the hour was closed (billed in the hour
 *   of the close that found them).
 * - DEPLOYMENT `deployment:<token id>` (the tier's credits), `deployment:<token id>:refund`.
 *
 * Application and network are kept without foreign keys: the record outlives a deleted application.
 */
export const usageRecords = pgTable(
  'usage_records',
  {
    id: text('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    source: text('source').$type<TUsageSource>().notNull(),
    applicationId: uuid('application_id'),
    networkId: uuid('network_id'),
    /** The JSON-RPC method, or `deployment`. */
    method: text('method').notNull(),
    methodClass: text('method_class').$type<TMethodClass>().notNull(),
    /** The UTC hour the use happened in. */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    /** The UTC hour whose close charged it to the ledger (the hour itself, or a later one for a correction). */
    billedHour: timestamp('billed_hour', { withTimezone: true }).notNull(),
    calls: bigint('calls', { mode: 'number' }).notNull(),
    /** Signed: a refund's correction is negative. */
    microCredits: bigint('micro_credits', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('usage_records_account_billed_idx').on(t.accountId, t.billedHour),
    index('usage_records_account_hour_idx').on(t.accountId, t.hour),
  ],
);

/**
 * Alerts given once (spending caps at 85 % and 100 %, credits running low after metered use): the
 * key names what crossed what (`cap:<application>:<month>:<cap>:<threshold>`), so a re-run, a second
 * node or a replay gives no second alert, and a raised cap may alert again.
 */
export const usageAlerts = pgTable('usage_alerts', {
  key: text('key').primaryKey(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
