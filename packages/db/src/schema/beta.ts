import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, users } from './portal.ts';

/*
 * Connect Beta (issue 35 §1; docs/decisions/shell-and-web.md), owned by the entitlements module: a
 * catalogue of beta features staff maintain, each switching on one feature key of the
 * entitlements module for the accounts that opt in. Open features any account with connectBeta
 * may opt in to; INVITATION features only the accounts staff invited.
 */

export type BetaFeatureAccess = 'OPEN' | 'INVITATION';

export const betaFeatures = pgTable(
  'beta_features',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    description: text('description').notNull(),
    /** The feature key it switches on (one of FEATURE_SWITCHES, never connectBeta itself). */
    featureKey: text('feature_key').notNull(),
    access: text('access').$type<BetaFeatureAccess>().notNull().default('OPEN'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Names are unique whatever their case (the service checks first; this holds two saves at once).
  (t) => [uniqueIndex('beta_features_name_lower_key').on(sql`lower(${t.name})`)],
);

/** An account staff invited to an INVITATION feature. */
export const betaInvitations = pgTable(
  'beta_invitations',
  {
    betaFeatureId: uuid('beta_feature_id')
      .notNull()
      .references(() => betaFeatures.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.betaFeatureId, t.accountId] }),
    index('beta_invitations_account_idx').on(t.accountId),
  ],
);

/** An account's opt-in: the feature's key is on for the account while the row exists (and the account may have it). */
export const betaOptins = pgTable(
  'beta_optins',
  {
    betaFeatureId: uuid('beta_feature_id')
      .notNull()
      .references(() => betaFeatures.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    optedInBy: uuid('opted_in_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.betaFeatureId, t.accountId] }), index('beta_optins_account_idx').on(t.accountId)],
);
