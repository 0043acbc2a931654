import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
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
import { networks } from './developer-hub.ts';
import { accounts, users } from './portal.ts';

/*
 * Rewards (issue 34; docs/decisions/rewards.md), owned by the campaign service. Amounts in wei of
 * QNT (18 decimals) as numeric(78,0), like the ledger; what a customer has earned and not yet
 * claimed is their REWARD_QNT in the ledger, never a column here.
 */

export type CampaignStatus = 'DRAFT' | 'PUBLISHED' | 'ACTIVE' | 'COMPLETED';
export type RewardTaskStatus = 'DRAFT' | 'PUBLISHED';
export type RewardClaimStatus = 'PENDING' | 'PAYING' | 'COMPLETED' | 'REJECTED';
export type RewardClaimEventStatus = RewardClaimStatus | 'SENT' | 'RESENT' | 'REVERTED';

const wei = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' });

/** A monthly campaign: its dates (UTC days, both included) and how many customers may opt in. */
export const rewardCampaigns = pgTable(
  'reward_campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    visibleName: text('visible_name').notNull(),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    participants: integer('participants').notNull(),
    /** Opt-ins so far: kept with each opt-in in its statement, so "full" is one row's check. */
    optedIn: integer('opted_in').notNull().default(0),
    status: text('status').$type<CampaignStatus>().notNull().default('DRAFT'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reward_campaigns_status_idx').on(t.status, t.startDate)],
);

/** A task of a campaign: an activity of the catalogue, how many of it, and what it is worth. */
export const rewardTasks = pgTable(
  'reward_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => rewardCampaigns.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    activityType: text('activity_type').notNull(),
    threshold: integer('threshold').notNull().default(1),
    valueWei: wei('value_wei').notNull(),
    status: text('status').$type<RewardTaskStatus>().notNull().default('DRAFT'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reward_tasks_campaign_idx').on(t.campaignId, t.createdAt)],
);

/** An account's opt-in to a campaign (once per account and campaign). */
export const rewardOptins = pgTable(
  'reward_optins',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => rewardCampaigns.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    optedInAt: timestamp('opted_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.accountId] }), index('reward_optins_account_idx').on(t.accountId)],
);

/**
 * An opted-in account's progress on a task: how many of its activity were recorded since the
 * opt-in, and when the threshold was reached (the task's value was then granted, once: the
 * ledger's reference `reward-task:<taskId>:<accountId>`).
 */
export const rewardProgress = pgTable(
  'reward_progress',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => rewardTasks.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => rewardCampaigns.id, { onDelete: 'cascade' }),
    count: integer('count').notNull().default(0),
    doneAt: timestamp('done_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.accountId] }),
    index('reward_progress_account_idx').on(t.accountId, t.campaignId),
  ],
);

/**
 * A claim of REWARD_QNT to an address. Its amount left the account's balance when it was made (the
 * ledger's `claim`, reference `reward-claim:<id>`); a rejection gives it back
 * (`reward-claim-release:<id>`). The payout is the platform transaction `reward-claim:<id>`
 * (`tx_hash`, stored with it before it is sent); the rewards follower notes the block it saw the
 * transfer in (`seen_block`, `seen_block_hash`) and completes the claim once that block is confirmed.
 */
export const rewardClaims = pgTable(
  'reward_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trackingCode: text('tracking_code').notNull().unique(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    address: text('address').notNull(),
    amountWei: wei('amount_wei').notNull(),
    /** The claim form's key (one per form): a request sent again with it answers this claim. */
    idempotencyKey: uuid('idempotency_key'),
    status: text('status').$type<RewardClaimStatus>().notNull().default('PENDING'),
    networkId: uuid('network_id').references(() => networks.id),
    txHash: text('tx_hash'),
    /** Where the rewards follower saw the payout's Transfer (cleared when that block is replaced). */
    seenBlock: bigint('seen_block', { mode: 'number' }),
    seenBlockHash: text('seen_block_hash'),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('reward_claims_status_idx').on(t.status, t.createdAt),
    index('reward_claims_account_idx').on(t.accountId, t.createdAt),
    // The follower finds a claim by its transfer's hash (one transaction pays one claim).
    uniqueIndex('reward_claims_tx_hash_idx').on(t.txHash),
    unique('reward_claims_account_key_unique').on(t.accountId, t.idempotencyKey),
  ],
);

/** A claim's history: each status it took and each transaction sent for it. */
export const rewardClaimEvents = pgTable(
  'reward_claim_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    claimId: uuid('claim_id')
      .notNull()
      .references(() => rewardClaims.id, { onDelete: 'cascade' }),
    status: text('status').$type<RewardClaimEventStatus>().notNull(),
    txHash: text('tx_hash'),
    note: text('note'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [index('reward_claim_events_claim_idx').on(t.claimId, t.id)],
);
