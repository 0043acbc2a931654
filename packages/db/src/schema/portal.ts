import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { FeatureName, KycStatus, Role, UserStatus } from '@connect/shared';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Roles of spec §6; users reference them so an unknown role cannot be stored. */
export const roles = pgTable('roles', {
  name: text('name').$type<Role>().primaryKey(),
  description: text('description').notNull(),
});

/** A customer account (organisation). Every user belongs to exactly one. */
export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  organisationName: text('organisation_name'),
  organisationLocation: text('organisation_location'),
  industry: text('industry'),
  companySize: text('company_size'),
  status: text('status').$type<UserStatus>().notNull().default('ACTIVE'),
  /** The account's plan is in account_plans (schema/billing.ts). */
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The portal user. `id` is the identity pool's `sub` (spec §4: the user id is the token subject). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Unique among users not REMOVED (a removed or purged address can register again). */
    email: text('email').notNull(),
    role: text('role')
      .$type<Role>()
      .notNull()
      .references(() => roles.name),
    status: text('status').$type<UserStatus>().notNull().default('ACTIVE'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    hearAboutUs: text('hear_about_us'),
    hearAboutUsDescription: text('hear_about_us_description'),
    promotionalEmails: boolean('promotional_emails').notNull().default(false),
    mfaSetup: boolean('mfa_setup').notNull().default(false),
    mfaConfirm: boolean('mfa_confirm').notNull().default(false),
    kycStatus: text('kyc_status').$type<KycStatus>().notNull().default('UNVERIFIED'),
    addedBy: text('added_by'),
    removedBy: text('removed_by'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    firstLoginAt: timestamp('first_login_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('users_account_idx').on(t.accountId),
    uniqueIndex('users_email_live_idx')
      .on(t.email)
      .where(sql`status <> 'REMOVED'`),
  ],
);

export const termsVersions = pgTable('terms_versions', {
  version: text('version').primaryKey(),
  title: text('title').notNull(),
  url: text('url').notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
});

export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: text('version')
      .notNull()
      .references(() => termsVersions.version),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.version] })],
);

/** Feature availability per account (spec §3 Features: t = total, a = used; no total = unlimited). */
export const accountFeatures = pgTable(
  'account_features',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    feature: text('feature').$type<FeatureName>().notNull(),
    total: integer('total'),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.feature] })],
);

export const contentUpdates = pgTable('content_updates', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  imageUrl: text('image_url'),
  linkUrl: text('link_url'),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Footer link groups; a link with no section is a secondary (bottom) link. */
export const footerSections = pgTable('footer_sections', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const footerLinks = pgTable('footer_links', {
  id: uuid('id').primaryKey().defaultRandom(),
  sectionId: uuid('section_id').references(() => footerSections.id, {
    onDelete: 'cascade',
  }),
  title: text('title').notNull(),
  url: text('url').notNull(),
  addSuffix: boolean('add_suffix').notNull().default(false),
  feature: text('feature'),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** Every email the product sends, for delivery (SMTP) and the dev mailbox. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    /** The one-time code the message carries, as its own field for the dev mailbox; cleared once delivered by SMTP. */
    code: text('code'),
    /** Makes a send idempotent (e.g. `event:<event id>:<subscriber>`): a second message with the same key is not written. */
    dedupeKey: text('dedupe_key').unique(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.toAddress, t.createdAt)],
);

/** Enquiries from the support form and the authorise page's contact button. */
export const contactRequests = pgTable(
  'contact_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<'SUPPORT' | 'AUTHORISE' | 'PLAN'>().notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company'),
    subject: text('subject'),
    /** The plan enquiry's current plan (the upgrade journey's Contact Us). */
    currentPlan: text('current_plan'),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contact_requests_user_idx').on(t.userId)],
);

/** Small key/value settings generated on first start (pool id, client id). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});
