import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, users } from './portal.ts';

/**
 * Per-account overrides of what the plan gives (issue 29 §4), owned by the entitlements module
 * (apps/server/src/services/entitlements): by `key`, either a switchable feature on or off
 * (`enabled`, e.g. `privateNetwork`) or an allowance's number (`amount`, e.g. `tokens`,
 * `rateLimit`). An override wins over the plan until it is cleared (the row deleted); the keys
 * are the module's (entitlements/keys.ts). Set by staff (the console of issue 33).
 */
export const entitlementOverrides = pgTable(
  'entitlement_overrides',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    enabled: boolean('enabled'),
    amount: integer('amount'),
    setBy: uuid('set_by').references(() => users.id, { onDelete: 'set null' }),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    check('entitlement_overrides_one_value', sql`num_nonnulls(${t.enabled}, ${t.amount}) = 1`),
    check('entitlement_overrides_amount', sql`${t.amount} is null or ${t.amount} >= 0`),
  ],
);
