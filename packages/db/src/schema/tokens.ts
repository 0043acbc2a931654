import { boolean, index, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { networks } from './developer-hub.ts';
import { accounts, users } from './portal.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export type TokenType = 'QRC20' | 'QRC721';
export type TierType = 'base' | 'flex' | 'vari';
/** MISSING: settled, but its contract is no longer on the (local) chain — a deployment the platform cannot send again. */
export type TokenStatus = 'PENDING' | 'ACTIVE' | 'FAILED' | 'NOT_ACTIVE' | 'UNPAID' | 'DEPRECATED' | 'MISSING';
export type DeploymentType = 'META_MASK' | 'QUANT';

/**
 * Smart-contract tiers offered per location (technology + network, spec §3 Tier card). A tier
 * without the credit amounts a deployment method needs is skipped for it (spec §5).
 */
export const tokenTiers = pgTable(
  'token_tiers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    networkId: uuid('network_id')
      .notNull()
      .references(() => networks.id, { onDelete: 'cascade' }),
    tokenType: text('token_type').$type<TokenType>().notNull(),
    tierType: text('tier_type').$type<TierType>().notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Credits for a deployment through the platform (QUANT); null: not offered that way. */
    deploymentCredits: integer('deployment_credits'),
    /** Credits for the prepared bytecode a wallet deploys (META_MASK, with deploymentCredits). */
    bytecodeCredits: integer('bytecode_credits'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('token_tiers_location_idx').on(t.networkId, t.tokenType, t.tierType)],
);

/** A token of an account (spec §3 Deploying token and token attributes). Amounts are integers. */
export const tokens = pgTable(
  'tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The client's idempotency key for the deployment (spec §4: cancel by externalId). */
    externalId: text('external_id').notNull().unique(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    networkId: uuid('network_id')
      .notNull()
      .references(() => networks.id),
    tierId: uuid('tier_id')
      .notNull()
      .references(() => tokenTiers.id),
    tokenType: text('token_type').$type<TokenType>().notNull(),
    tierType: text('tier_type').$type<TierType>().notNull(),
    name: text('name').notNull(),
    unit: text('unit').notNull(),
    decimals: integer('decimals').notNull().default(0),
    /** Whole tokens, as entered (0 to 1 000 000 000); on-chain amounts scale by decimals. */
    initialSupply: numeric('initial_supply', { precision: 78, scale: 0 }).notNull().default('0'),
    maxSupply: numeric('max_supply', { precision: 78, scale: 0 }),
    remintable: boolean('remintable').notNull().default(false),
    supplyHolderAddress: text('supply_holder_address'),
    minterAddress: text('minter_address'),
    ownerAddress: text('owner_address'),
    tokenUri: text('token_uri'),
    deploymentType: text('deployment_type').$type<DeploymentType>().notNull(),
    status: text('status').$type<TokenStatus>().notNull().default('PENDING'),
    /** The address that sent the deployment (platform deployer or the user's wallet). */
    deployerAddress: text('deployer_address'),
    txHash: text('tx_hash'),
    contractAddress: text('contract_address'),
    blockNumber: numeric('block_number', { precision: 78, scale: 0 }),
    creditsCharged: integer('credits_charged').notNull().default(0),
    failureReason: text('failure_reason'),
    deployedAt: timestamp('deployed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tokens_account_idx').on(t.accountId, t.createdAt),
    uniqueIndex('tokens_network_tx_idx').on(t.networkId, t.txHash),
  ],
);
