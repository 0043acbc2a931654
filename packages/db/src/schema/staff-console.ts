import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { KycStatus, PlanStatus, Role, UserStatus } from '@connect/shared';
import { accounts, users } from './portal.ts';

/*
 * The staff console (issue 32; docs/decisions/staff-console.md). Migration 0018 adds what Drizzle's
 * schema cannot say: the pg_trgm extension, the triggers that keep the two projections below in
 * step with users and accounts, the C-collated key columns' expressions, and the audit log's
 * append-only guard.
 */

/**
 * One row per portal user with everything the user list shows, searches and sorts: a projection of
 * users + accounts, kept by triggers in the same transaction as each change (so it is never stale,
 * whichever code path writes). A search joining users and accounts with OR took 7.5 s at a million
 * rows; one table with a trigram index answers in milliseconds. The `*_key` columns are the sort
 * keys: never null, lower-cased, in the C collation (byte order, the same on PostgreSQL and PGlite),
 * each with a btree on (status, key, user_id) for keyset seeks within a tab.
 */
export const userDirectory = pgTable('user_directory', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id').notNull(),
  status: text('status').$type<UserStatus>().notNull(),
  email: text('email').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  role: text('role').$type<Role>().notNull(),
  organisationName: text('organisation_name'),
  addedBy: text('added_by'),
  removedBy: text('removed_by'),
  kycStatus: text('kyc_status').$type<KycStatus>().notNull(),
  mfaSetup: boolean('mfa_setup').notNull(),
  mfaConfirm: boolean('mfa_confirm').notNull(),
  statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull(),
  firstLoginAt: timestamp('first_login_at', { withTimezone: true }),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  emailKey: text('email_key').notNull(),
  firstNameKey: text('first_name_key').notNull(),
  lastNameKey: text('last_name_key').notNull(),
  organisationKey: text('organisation_key').notNull(),
  /** first name, last name, email and organisation, lower case: the trigram index's text. */
  searchText: text('search_text').notNull(),
});

/** The user list's tab counts (ACTIVE, PENDING, REMOVED), exact, kept by the users trigger. */
export const userStatusCounts = pgTable('user_status_counts', {
  status: text('status').$type<UserStatus>().primaryKey(),
  count: bigint('count', { mode: 'number' }).notNull(),
});

/**
 * What staff did (issue 32 §1): append-only (a trigger refuses UPDATE, DELETE and TRUNCATE).
 * A change in this database is one DONE entry written in its transaction; a change in the identity
 * pool is an INTENT entry before the call and a SUCCEEDED or FAILED entry naming it after, so a
 * crash between the two shows as an intent without an outcome.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    outcome: text('outcome').notNull(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    intentId: bigint('intent_id', { mode: 'bigint' }),
    detail: text('detail'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_log_occurred_idx').on(t.occurredAt, t.id),
    index('audit_log_action_idx').on(t.action, t.occurredAt, t.id),
    index('audit_log_record_idx').on(t.recordType, t.recordId, t.occurredAt, t.id),
    index('audit_log_actor_idx').on(sql`lower(${t.actorEmail}) collate "C"`, t.occurredAt, t.id),
    index('audit_log_intent_idx').on(t.intentId),
  ],
);

/**
 * One row per account with everything the account list shows, searches and sorts (issue 33 §1): a
 * projection of accounts, their users (the owner: the first user; the latest sign-in) and their
 * plan, kept by migration 0019's triggers in each change's transaction. `status` is REMOVED when
 * staff closed the account, PENDING while its users are all invited and not signed in yet, else
 * ACTIVE. Sort keys as in user_directory: never null, C-collated.
 */
export const accountDirectory = pgTable('account_directory', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  status: text('status').$type<UserStatus>().notNull(),
  organisationName: text('organisation_name'),
  ownerUserId: uuid('owner_user_id'),
  ownerEmail: text('owner_email'),
  ownerName: text('owner_name'),
  currentPlan: text('current_plan'),
  planStatus: text('plan_status').$type<PlanStatus>(),
  planExpiry: timestamp('plan_expiry', { withTimezone: true }),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  organisationKey: text('organisation_key').notNull(),
  planKey: text('plan_key').notNull(),
  /** organisation, owner email and name, plan: the trigram index's text. */
  searchText: text('search_text').notNull(),
});

/** The account list's exact counts per status, kept by a trigger on account_directory. */
export const accountStatusCounts = pgTable('account_status_counts', {
  status: text('status').$type<UserStatus>().primaryKey(),
  count: bigint('count', { mode: 'number' }).notNull(),
});
