import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { KycStatus, TApplicationRole } from '@connect/shared';
import { accounts, users } from './portal.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export type NetworkType = 'testnet' | 'mainnet';
/** Last live health check of a network's RPC (chain id matches, latest block advancing). */
export type NetworkHealth = 'ONLINE' | 'DEGRADED' | 'OFFLINE' | 'NOT_CONFIGURED';

/**
 * The network catalogue (spec §3 Integrate state): public testnets and mainnets the platform
 * connects to. The RPC URL comes from configuration (the local chains by default); a network
 * without one cannot be activated.
 */
export const networks = pgTable('networks', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stable key used by configuration (`NETWORK_RPC_<CODE>`) and seeds, e.g. `ethereum-testnet`. */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  networkType: text('network_type').$type<NetworkType>().notNull(),
  /** The blockchain family shown as "technology" (e.g. Ethereum, Polygon). */
  technology: text('technology').notNull(),
  description: text('description').notNull().default(''),
  chainId: bigint('chain_id', { mode: 'number' }).notNull(),
  rpcUrl: text('rpc_url'),
  /** The QNT ERC-20 on this chain, where customers pay in QNT (issue 15); null where QNT is not taken. */
  qntTokenAddress: text('qnt_token_address'),
  explorerUrl: text('explorer_url'),
  /**
   * Not enforced, not shown: the gateway enforces the plan's rate (`rate_plans.rate_limit`, or the
   * account's override) per account and network, and the APIs' `networkRateLimit`/`rateLimit` show
   * that figure. Kept for the catalogue's data only (issue 28).
   */
  rateLimit: integer('rate_limit').notNull().default(25),
  /** True for the local chains that stand in for public testnets (shown with a Sandbox chip). */
  isLocal: boolean('is_local').notNull().default(false),
  health: text('health').$type<NetworkHealth>().notNull().default('NOT_CONFIGURED'),
  latestBlock: bigint('latest_block', { mode: 'number' }),
  healthCheckedAt: timestamp('health_checked_at', { withTimezone: true }),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Networks an account has activated (My networks). */
export const accountNetworks = pgTable(
  'account_networks',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    networkId: uuid('network_id')
      .notNull()
      .references(() => networks.id, { onDelete: 'cascade' }),
    activatedBy: uuid('activated_by').references(() => users.id, { onDelete: 'set null' }),
    activatedAt: timestamp('activated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.networkId] })],
);

export type PrivateNetworkStatus = 'UNDER_REVIEW' | 'ACTIVE' | 'REJECTED' | 'REMOVAL_REQUESTED' | 'REMOVED';
export type PrivateNetworkEnvironment = 'production' | 'sandbox';
export type NodeType = 'light' | 'full' | 'archive';

/** A customer's own EVM network (spec §3 Private network), reviewed by staff before use. */
export const privateNetworks = pgTable(
  'private_networks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    environment: text('environment').$type<PrivateNetworkEnvironment>().notNull(),
    chainId: bigint('chain_id', { mode: 'number' }).notNull(),
    eip1559: boolean('eip1559').notNull(),
    blocksForSuccess: integer('blocks_for_success').notNull(),
    rpcUrl: text('rpc_url').notNull(),
    tokenSymbol: text('token_symbol').notNull(),
    tokenDecimals: integer('token_decimals').notNull(),
    nodeType: text('node_type').$type<NodeType>().notNull(),
    status: text('status').$type<PrivateNetworkStatus>().notNull().default('UNDER_REVIEW'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    removalRequestedAt: timestamp('removal_requested_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('private_networks_account_idx').on(t.accountId),
    // The staff's review list (issue 33 §4): one status, oldest first.
    index('private_networks_status_created_idx').on(t.status, t.createdAt, t.id),
  ],
);

export type ApplicationType = 'testnet' | 'mainnet';

/** An API application (spec §3 Application). The client secret is only ever stored hashed. */
export const applications = pgTable(
  'applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** lower(name): names are unique per account, case-insensitively. */
    nameKey: text('name_key').notNull(),
    callbackUrl: text('callback_url').notNull(),
    applicationType: text('application_type').$type<ApplicationType>().notNull(),
    testnetSigning: boolean('testnet_signing').notNull().default(false),
    /** What the application is for (issue 33 §2; APPLICATION_ROLES): DEVELOPER unless staff chose another. */
    roleName: text('role_name').$type<TApplicationRole>().notNull().default('DEVELOPER'),
    clientId: text('client_id').notNull().unique(),
    signingServiceName: text('signing_service_name').notNull(),
    signingKeyId: text('signing_key_id').notNull().unique(),
    signingPublicKey: text('signing_public_key').notNull(),
    /** secp256k1 private key, sealed with SECRET_KEY (lib/secret-box.ts). */
    signingPrivateKey: text('signing_private_key').notNull(),
    /** The customer's monthly spending cap in micro-credits (issue 17); null: no cap. */
    monthlyCapMicro: bigint('monthly_cap_micro', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('applications_account_name_idx').on(t.accountId, t.nameKey),
    index('applications_account_idx').on(t.accountId),
  ],
);

/** Client secrets of an application: the current one has no expiry; a rotated one expires later. */
export const applicationSecrets = pgTable(
  'application_secrets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** SHA-256 of the secret (high-entropy random secrets need no slow hash). */
    secretHash: text('secret_hash').notNull().unique(),
    /** Last four characters, so the user can tell secrets apart. */
    hint: text('hint').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('application_secrets_app_idx').on(t.applicationId)],
);

export const applicationNetworks = pgTable(
  'application_networks',
  {
    applicationId: uuid('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    networkId: uuid('network_id')
      .notNull()
      .references(() => networks.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.applicationId, t.networkId] })],
);

export type KycProvider = 'onfido' | 'sandbox';
export type KycCheckStatus = Exclude<KycStatus, 'UNVERIFIED'>;

/** The identity-verification applicant of a user at the provider (Onfido or the sandbox). */
export const kycApplicants = pgTable('kyc_applicants', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider').$type<KycProvider>().notNull(),
  applicantId: text('applicant_id').notNull(),
  createdAt: createdAt(),
});

/** One verification check; the user's kycStatus follows the latest one. */
export const kycChecks = pgTable(
  'kyc_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<KycProvider>().notNull(),
    checkId: text('check_id').notNull(),
    status: text('status').$type<KycCheckStatus>().notNull().default('PENDING'),
    /** The names on the document, compared with the profile (spec §5). */
    documentFirstName: text('document_first_name'),
    documentLastName: text('document_last_name'),
    /** Sandbox only: the outcome the tester chose. */
    sandboxOutcome: text('sandbox_outcome'),
    reason: text('reason'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('kyc_checks_user_idx').on(t.userId, t.createdAt)],
);
