import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { networks } from './developer-hub.ts';

/** What became of a transaction the platform signed. */
/** REPLACED: another transaction with the same sender and nonce (a fee bump) took its place. */
export type PlatformTxStatus = 'SIGNED' | 'SENT' | 'MINED' | 'FAILED' | 'DROPPED' | 'REPLACED';

/**
 * Keys the platform generated for itself (e.g. the local chains' deployer, one per installation),
 * sealed with SECRET_KEY (lib/secret-box.ts). A key from configuration is never stored here.
 */
export const platformKeys = pgTable('platform_keys', {
  name: text('name').primaryKey(),
  address: text('address').notNull(),
  sealedPrivateKey: text('sealed_private_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every transaction the platform signs, stored before it is sent, so that after a crash the
 * transactions a chain lost can be sent again (same sender and nonce: same hash, same contract
 * address). `reference` names what it is for (e.g. `token:<id>`).
 */
export const platformTransactions = pgTable(
  'platform_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    networkId: uuid('network_id')
      .notNull()
      .references(() => networks.id),
    fromAddress: text('from_address').notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    txHash: text('tx_hash').notNull(),
    rawTx: text('raw_tx').notNull(),
    reference: text('reference').notNull(),
    status: text('status').$type<PlatformTxStatus>().notNull().default('SIGNED'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('platform_transactions_hash_idx').on(t.networkId, t.txHash),
    index('platform_transactions_sender_idx').on(t.networkId, t.fromAddress, t.nonce),
    index('platform_transactions_reference_idx').on(t.reference),
  ],
);
