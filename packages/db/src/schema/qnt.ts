import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orders } from './billing.ts';
import { accounts } from './portal.ts';

/**
 * Deposit addresses (issue 15): derived (BIP-32, m/44'/60'/0'/0/<index>) from the extended public
 * key in configuration, so the server holds no deposit private key. Addresses are derived ahead
 * into a pool (`accountId` null: unallocated) and given to an account once, for good.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    derivationIndex: integer('derivation_index').primaryKey(),
    /** Lower-case 0x address. */
    address: text('address').notNull().unique(),
    accountId: uuid('account_id')
      .unique()
      .references(() => accounts.id, { onDelete: 'set null' }),
    allocatedAt: timestamp('allocated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('deposit_addresses_unallocated_idx')
      .on(t.derivationIndex)
      .where(sql`account_id is null`),
  ],
);

/**
 * A chain follower's position (adapters/chains/follower): the last block it processed on a chain,
 * with its hash, so that a replaced block (a reorg) is noticed at the next poll.
 */
export const chainCursors = pgTable(
  'chain_cursors',
  {
    follower: text('follower').notNull(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /**
     * The newest block the follower told its owner had its confirmations (at most the cursor);
     * null before the first. A reorg that replaces a block up to it is a confirmed block lost: the
     * follower's `onConfirmedBlockLost` hooks run (issue 27 §4).
     */
    confirmedBlock: bigint('confirmed_block', { mode: 'number' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.follower, t.chainId] })],
);

/** The hashes of the recent blocks a follower processed (its reorg window). */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    follower: text('follower').notNull(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.follower, t.chainId, t.blockNumber] })],
);

/**
 * QNT transfers to deposit addresses, as the follower saw them. PROCESSING until the block has
 * the configured confirmations, then CONFIRMED (credited to the account's QNT in the ledger, once:
 * reference `qnt-transfer:<chainId>:<txHash>:<logIndex>`); REORGED when its block was replaced and
 * it was not found again. A confirmed transfer whose block the chain lost (issue 27 §4) keeps its
 * credit with `lostToBlock` set while the follower reads the new chain: seen again there, it is
 * confirmed again (credited once); not seen once the new chain is confirmed up to `lostToBlock`, it
 * is REVERSED (the credit taken back through the ledger, `reversals` counted so a transfer mined
 * again later is credited again under a new reference).
 */
export const qntTransfers = pgTable(
  'qnt_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    txHash: text('tx_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockHash: text('block_hash').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** In wei (QNT has 18 decimals). */
    amount: numeric('amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    status: text('status').$type<QntTransferStatus>().notNull(),
    /** Set while the transfer's confirmed block is lost: the old chain's block the new one must be confirmed to. */
    lostToBlock: bigint('lost_to_block', { mode: 'number' }),
    /** How many times its credit was taken back (the chain lost it); 0 for nearly all. */
    reversals: integer('reversals').notNull().default(0),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    unique('qnt_transfers_log_unique').on(t.chainId, t.txHash, t.logIndex),
    index('qnt_transfers_account_idx').on(t.accountId, t.seenAt),
    index('qnt_transfers_status_idx').on(t.chainId, t.status, t.blockNumber),
    index('qnt_transfers_lost_idx')
      .on(t.chainId, t.lostToBlock)
      .where(sql`lost_to_block is not null`),
  ],
);

export type QntTransferStatus = 'PROCESSING' | 'CONFIRMED' | 'REORGED' | 'REVERSED';

export type QntPaymentStatus = 'NEW' | 'PROCESSING' | 'SETTLED' | 'EXPIRED' | 'INVALID';
export type QntPaymentReason = 'PAID_PARTIAL' | 'PAID_OVER' | 'PAID_LATE';

/**
 * The QNT side of an order paid in QNT (BTCPay Server's states): the amount due in wei from the
 * prices adapter, with its rate and time, until when the quote holds, and where the payment is.
 */
export const qntPayments = pgTable(
  'qnt_payments',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    depositAddress: text('deposit_address').notNull(),
    amountDue: numeric('amount_due', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** Pounds per QNT the amount was quoted at (decimal string), and when it was read. */
    gbpPerQnt: text('gbp_per_qnt').notNull(),
    rateAt: timestamp('rate_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    status: text('status').$type<QntPaymentStatus>().notNull().default('NEW'),
    reason: text('reason').$type<QntPaymentReason>(),
    /** QNT taken from the account's balance for this order, in wei. */
    paid: numeric('paid', { precision: 78, scale: 0, mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** Transactions the customer's wallet reported (POST /confirm-payment); the follower decides. */
    reportedTxHashes: text('reported_tx_hashes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('qnt_payments_open_idx').on(t.accountId, t.status, t.createdAt)],
);

export type DepositSweepStatus = 'PENDING' | 'SENT' | 'MINED' | 'FAILED';

/**
 * Sweeps of settled deposits to the treasury (services/payment/sweep.ts, through the platform
 * transaction sender): PENDING when recorded (then the address is given gas), SENT once the
 * deposit key's transfer is stored, MINED or FAILED. At most one sweep of an address is in flight
 * (PENDING or SENT) at a time: the partial unique index, which two runs at once both meet.
 */
export const depositSweeps = pgTable(
  'deposit_sweeps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    derivationIndex: integer('derivation_index')
      .notNull()
      .references(() => depositAddresses.derivationIndex),
    /** QNT moved, in wei. */
    amount: numeric('amount', { precision: 78, scale: 0, mode: 'bigint' }).notNull(),
    /** The platform key's gas for the transfer (reference `sweep-gas:<id>`); null when none was needed. */
    gasTxHash: text('gas_tx_hash'),
    /** The deposit key's transfer to the treasury (reference `sweep:<id>`). */
    txHash: text('tx_hash'),
    status: text('status').$type<DepositSweepStatus>().notNull().default('PENDING'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('deposit_sweeps_status_idx').on(t.status),
    uniqueIndex('deposit_sweeps_in_flight_idx')
      .on(t.chainId, t.derivationIndex)
      .where(sql`status in ('PENDING', 'SENT')`),
  ],
);
