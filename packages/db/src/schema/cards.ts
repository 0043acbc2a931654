import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { invoices, orders } from './billing.ts';
import { accounts, users } from './portal.ts';

/*
 * Card payments (issue 16; docs/decisions/payments.md "Card payments"). The card provider (Stripe, or the
 * embedded sandbox that speaks Stripe) holds the card; the platform keeps the customer's id, the
 * card it may charge (brand, last four digits, expiry — never the number) and one row per intent.
 */

/** The account's customer at the card provider and its saved card (for monthly charges). */
export const cardCustomers = pgTable('card_customers', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  paymentMethodId: text('payment_method_id'),
  brand: text('brand'),
  last4: text('last4'),
  expMonth: integer('exp_month'),
  expYear: integer('exp_year'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type CardIntentKind = 'PAYMENT' | 'SETUP';
/** Why the intent exists: a checkout in the portal, a monthly charge of the saved card, a card saved or replaced. */
export type CardIntentPurpose = 'CHECKOUT' | 'MONTHLY' | 'SAVE_CARD';

/**
 * One PaymentIntent or SetupIntent. `status` mirrors the provider's (requires_payment_method,
 * requires_action, processing, succeeded, canceled, …); the order is paid from the provider's
 * answer (a webhook or a confirmation), once, through `payments` (method FIAT, the intent's id).
 */
export const cardIntents = pgTable(
  'card_intents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    intentId: text('intent_id').notNull().unique(),
    kind: text('kind').$type<CardIntentKind>().notNull(),
    purpose: text('purpose').$type<CardIntentPurpose>().notNull(),
    status: text('status').notNull(),
    clientSecret: text('client_secret').notNull(),
    amountGbpMinor: integer('amount_gbp_minor').notNull().default(0),
    /** Whether the card is kept for monthly charges once this intent succeeds. */
    saveCard: boolean('save_card').notNull().default(false),
    failureCode: text('failure_code'),
    failureMessage: text('failure_message'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('card_intents_order_idx').on(t.orderId, t.createdAt),
    index('card_intents_unfinished_idx')
      .on(t.updatedAt)
      .where(sql`status not in ('succeeded', 'canceled')`),
  ],
);

/**
 * The monthly charge of an order on the saved card: attempts so far and when the next is due
 * (docs/decisions/payments.md: the retry schedule). Removed from the schedule when paid or out of attempts.
 */
export const cardCharges = pgTable(
  'card_charges',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    /** Null once the order is paid or the attempts are used up. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('card_charges_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`next_attempt_at is not null`),
  ],
);

/**
 * A refund of (part of) a paid order, recorded by staff; keyed so a retry refunds once. FIAT: to the
 * card through the provider (`intentId` the card payment refunded, `externalId` the provider's
 * refund). BANK_TRANSFER: paid back by a bank transfer staff made (`externalId` `bank:` and its
 * reference; no intent).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The staff's key for this refund (one click, one refund). */
    idempotencyKey: text('idempotency_key').notNull(),
    method: text('method').$type<'FIAT' | 'BANK_TRANSFER'>().notNull().default('FIAT'),
    /** The provider's refund id (re_…), or `bank:` and the reference of the transfer that paid it back. */
    externalId: text('external_id').unique(),
    intentId: text('intent_id'),
    amountGbpMinor: integer('amount_gbp_minor').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull(),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('refunds_order_key_idx').on(t.orderId, t.idempotencyKey)],
);

/**
 * A credit note against an invoice (a refund): a negative document beside the invoice, never an
 * edit of it. Numbered from the CN counter (invoice_counters) when it is made.
 */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    refundId: uuid('refund_id')
      .notNull()
      .unique()
      .references(() => refunds.id, { onDelete: 'cascade' }),
    number: text('number').unique(),
    numberSeq: bigint('number_seq', { mode: 'number' }).unique(),
    currency: text('currency').notNull().default('GBP'),
    amountMinor: integer('amount_minor').notNull(),
    reason: text('reason').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_notes_invoice_idx').on(t.invoiceId)],
);

/** Webhook events already handled (the provider delivers at least once). */
export const cardWebhookEvents = pgTable('card_webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/*
 * The embedded card sandbox's own state (adapters/cards/sandbox): what Stripe would hold — its
 * customers, intents, payment methods, refunds — and the webhook events it still has to deliver.
 * Nothing of the platform reads these tables; it talks to the sandbox through Stripe's API.
 */
export const cardSandboxObjects = pgTable(
  'card_sandbox_objects',
  {
    id: text('id').primaryKey(),
    object: text('object').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('card_sandbox_objects_kind_idx').on(t.object, t.createdAt)],
);

export const cardSandboxEvents = pgTable(
  'card_sandbox_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The event as Stripe sends it (the body that is signed). */
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('card_sandbox_events_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`delivered_at is null`),
  ],
);
