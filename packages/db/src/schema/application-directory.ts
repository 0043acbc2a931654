import { bigint, foreignKey, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ApplicationType, TApplicationRole, UserStatus } from '@connect/shared';
import { applicationNetworks, applications } from './developer-hub.ts';

/*
 * Application management's list (issue 33 §2; docs/decisions/staff-console.md, "The application
 * directory"). Migration 0020 adds what Drizzle's schema cannot say: the triggers that keep these
 * tables in step with applications, application_networks, users and account_directory in each
 * change's transaction, the C-collated key columns, the keyset and trigram indexes.
 */

/**
 * One row per application with everything the staff list shows, searches and sorts: the
 * application, its owner (the user it belongs to — its creator — else the account's owner) and its
 * account's organisation and status (account_directory's). Sort keys as in user_directory: never
 * null, lower-cased, C-collated, each with a btree on (key, application_id) and one led by status.
 */
export const applicationDirectory = pgTable('application_directory', {
  applicationId: uuid('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  accountId: uuid('account_id').notNull(),
  status: text('status').$type<UserStatus>().notNull(),
  name: text('name').notNull(),
  clientId: text('client_id').notNull(),
  applicationType: text('application_type').$type<ApplicationType>().notNull(),
  roleName: text('role_name').$type<TApplicationRole>().notNull(),
  ownerUserId: uuid('owner_user_id'),
  ownerEmail: text('owner_email'),
  ownerName: text('owner_name'),
  organisationName: text('organisation_name'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  nameKey: text('name_key').notNull(),
  ownerKey: text('owner_key').notNull(),
  /** name, client id and owner email, lower case: the trigram index's text. */
  searchText: text('search_text').notNull(),
});

/**
 * The list filtered by a network: one row per application and network it uses, with the sort keys
 * and status copied from application_directory, so a network's applications are an index seek on
 * (network_id, key, application_id) whatever the sort — a filter on an array would walk the whole
 * sort index for a network few applications use. Deleted with its application_networks row.
 */
export const applicationNetworkDirectory = pgTable(
  'application_network_directory',
  {
    networkId: uuid('network_id').notNull(),
    applicationId: uuid('application_id').notNull(),
    status: text('status').$type<UserStatus>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    nameKey: text('name_key').notNull(),
    ownerKey: text('owner_key').notNull(),
    /**
     * A copy of application_directory's, with a trigram index of its own: a search within a network
     * then reads only this table's narrow rows (a common word on a common network: 28 ms to count
     * 10,000 matches, 73 ms when the count joined application_directory's 41,000).
     */
    searchText: text('search_text').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.networkId, t.applicationId] }),
    foreignKey({
      name: 'application_network_directory_link_fk',
      columns: [t.applicationId, t.networkId],
      foreignColumns: [applicationNetworks.applicationId, applicationNetworks.networkId],
    }).onDelete('cascade'),
  ],
);

/**
 * The list's exact totals per status, for every network (network_id = the nil UUID) and per
 * network, moved by triggers on the two tables above.
 */
export const applicationListCounts = pgTable(
  'application_list_counts',
  {
    networkId: uuid('network_id').notNull(),
    status: text('status').$type<UserStatus>().notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.status] })],
);
