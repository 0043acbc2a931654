import { sql } from 'drizzle-orm';
import { bigserial, index, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './portal.ts';

/**
 * What the ledger counts, per account: CREDIT (platform credits), QNT (QNT held for the customer,
 * e.g. an over-payment; in wei) and REWARD_QNT (QNT earned in reward campaigns; in wei).
 */
export type LedgerAsset = 'CREDIT' | 'QNT' | 'REWARD_QNT';
/** Why an entry moves a balance. `reversal`: money credited and then taken back (its cause undone: a chain lost the QNT transfer). */
export type LedgerKind = 'grant' | 'purchase' | 'consume' | 'refund' | 'payment' | 'claim' | 'reversal';

/**
 * The one ledger (ARCHITECTURE.md, "Money"): append-only signed integer entries per account and
 * asset. Nothing updates or deletes an entry; a correction is a new entry. `reference` is unique,
 * so the same movement (e.g. `token:<id>`) is never recorded twice, whatever retries happen.
 * `balanceAfter` is the running balance of the account's asset after this entry.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    /** Also the order of entries. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    asset: text('asset').$type<LedgerAsset>().notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    /** Positive: added; negative: taken. */
    amount: numeric('amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    balanceAfter: numeric('balance_after', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    reason: text('reason').notNull(),
    reference: text('reference').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.asset, t.id),
    // The month's close reads the entries made since the month ended (issue 18).
    index('ledger_entries_created_idx').on(t.createdAt),
  ],
);

/**
 * Per account and asset: the balance the entries add up to (kept with each entry, in the same
 * statement, so it can be read in one row and locked while a movement is checked against the
 * floor), and the floor the balance may not pass: 0 for prepaid credits, a credit limit below
 * zero for pay-as-you-go.
 */
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    asset: text('asset').$type<LedgerAsset>().notNull(),
    balance: numeric('balance', { precision: 78, scale: 0, mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    floor: numeric('floor', { precision: 78, scale: 0, mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.asset] })],
);
