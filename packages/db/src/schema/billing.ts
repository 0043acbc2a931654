import {
  boolean,
  index,
  integer,
  pgTable,
  pgView,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PlanStatus } from '@connect/shared';
import { creditBundles, ratePlans, type PaymentMethod } from './plans.ts';
import { accounts, users } from './portal.ts';

/**
 * Why a plan is in its status (docs/decisions.md, "The account plan"). TRIAL: on the trial;
 * AWAITING_PAYMENT: an order waits for its payment (PENDING); RENEWAL_DUE: the period ended and
 * its renewal order waits for payment (still ACTIVE within the grace days); RENEWAL_FAILED,
 * TRIAL_ENDED, CANCELLED: why it is INACTIVE; STAFF: set by staff (DISABLED).
 */
export type PlanStatusReason =
  'TRIAL' | 'AWAITING_PAYMENT' | 'RENEWAL_DUE' | 'RENEWAL_FAILED' | 'TRIAL_ENDED' | 'CANCELLED' | 'STAFF';

/**
 * The plan of each account (one row per account). Written only by the account-plan lifecycle
 * (services/account-plan/lifecycle.ts), which applies the transitions of transitions.ts.
 */
export const accountPlans = pgTable(
  'account_plans',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The plan whose allowances apply now (the trial plan until a paid plan is active). */
    ratePlanId: uuid('rate_plan_id')
      .notNull()
      .references(() => ratePlans.id),
    status: text('status').$type<PlanStatus>().notNull(),
    statusReason: text('status_reason').$type<PlanStatusReason>(),
    /** While PENDING: the status before the order (ACTIVE keeps the current allowances in service). */
    statusBeforePending: text('status_before_pending').$type<PlanStatus>(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** The end of the paid period: its renewal date, or its end when cancelled. Null on the trial. */
    periodEnd: timestamp('period_end', { withTimezone: true }),
    upfrontMonths: integer('upfront_months'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade chosen for the next period; applied at the period end. */
    nextRatePlanId: uuid('next_rate_plan_id').references(() => ratePlans.id),
    /** The order that waits for payment (PENDING, or RENEWAL_DUE). */
    pendingOrderId: uuid('pending_order_id'),
    /** How the last order was paid; a renewal is offered the same way. */
    lastPaymentMethod: text('last_payment_method').$type<PaymentMethod>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('account_plans_period_end_idx').on(t.periodEnd),
    index('account_plans_trial_end_idx').on(t.trialEndsAt),
  ],
);

/**
 * What each account may have now, from its current plan: the one source of allowances for every
 * check (applications, tokens, bridges, blockchains, mainnets, testnets, the gateway's rate limit).
 * `inService`: the plan is ACTIVE, or PENDING with an active plan behind the order; otherwise
 * nothing new may be created and the gateway refuses calls. Defined in migration 0009.
 */
export const accountAllowances = pgView('account_allowances', {
  accountId: uuid('account_id').notNull(),
  status: text('status').$type<PlanStatus>().notNull(),
  inService: boolean('in_service').notNull(),
  applications: integer('applications').notNull(),
  tokens: integer('tokens').notNull(),
  bridges: integer('bridges').notNull(),
  blockchains: integer('blockchains').notNull(),
  mainnets: integer('mainnets').notNull(),
  testnets: integer('testnets').notNull(),
  rateLimit: integer('rate_limit').notNull(),
}).existing();

/** USAGE: a pay-as-you-go month's bill for the credits used on credit (the period job). */
export type OrderKind = 'PLAN' | 'CREDITS' | 'RENEWAL' | 'USAGE';
export type OrderStatus = 'AWAITING_PAYMENT' | 'PAID' | 'CANCELLED';

/**
 * An order: a plan (with its upfront months), a credit bundle, or both; or a renewal. Its key is
 * unique per account, so a repeated request answers the same order. Prices are fixed when it is
 * placed: the fee in pence, the bundle in US cents, converted at `usdPerGbp` (read at `rateAt`)
 * into the total in pence that the customer pays.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The payment reference the customer quotes (bank transfer), e.g. `CNX-7K3M9QXA`. */
    reference: text('reference').notNull().unique(),
    kind: text('kind').$type<OrderKind>().notNull(),
    ratePlanId: uuid('rate_plan_id').references(() => ratePlans.id),
    upfrontMonths: integer('upfront_months'),
    creditBundleId: uuid('credit_bundle_id').references(() => creditBundles.id),
    credits: integer('credits').notNull().default(0),
    paymentMethod: text('payment_method').$type<PaymentMethod>().notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('AWAITING_PAYMENT'),
    feeGbpMinor: integer('fee_gbp_minor').notNull().default(0),
    bundleUsdCents: integer('bundle_usd_cents').notNull().default(0),
    /** US dollars per pound used for the bundle, as a decimal string. */
    usdPerGbp: text('usd_per_gbp').notNull(),
    rateAt: timestamp('rate_at', { withTimezone: true }).notNull(),
    totalGbpMinor: integer('total_gbp_minor').notNull(),
    /** The period the plan part pays for. */
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('orders_account_key_unique').on(t.accountId, t.idempotencyKey),
    index('orders_account_idx').on(t.accountId, t.createdAt),
    index('orders_status_idx').on(t.status),
  ],
);

/** A payment received for an order; `(method, externalId)` is unique, so a receipt is recorded once. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    method: text('method').$type<PaymentMethod>().notNull(),
    /** The bank's transaction id, the chain transaction, the card provider's id. */
    externalId: text('external_id').notNull(),
    amountGbpMinor: integer('amount_gbp_minor').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payments_method_external_idx').on(t.method, t.externalId),
    index('payments_order_idx').on(t.orderId),
  ],
);

export type InvoiceStatus = 'DRAFT' | 'OPEN' | 'PAID' | 'VOID';

/**
 * An invoice record. An order has its own from the moment it is placed (OPEN until paid), so the
 * monthly close (invoices issue) never bills it again; the number is given when it is finalised.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    orderId: uuid('order_id')
      .unique()
      .references(() => orders.id, { onDelete: 'cascade' }),
    number: text('number').unique(),
    status: text('status').$type<InvoiceStatus>().notNull(),
    currency: text('currency').notNull().default('GBP'),
    subtotalMinor: integer('subtotal_minor').notNull(),
    vatMinor: integer('vat_minor').notNull().default(0),
    totalMinor: integer('total_minor').notNull(),
    amountPaidMinor: integer('amount_paid_minor').notNull().default(0),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invoices_account_idx').on(t.accountId, t.issuedAt)],
);

/** The lines of an invoice, in order; amounts in the invoice's currency's minor unit. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceMinor: integer('unit_price_minor').notNull(),
    vatMinor: integer('vat_minor').notNull().default(0),
    amountMinor: integer('amount_minor').notNull(),
  },
  (t) => [uniqueIndex('invoice_lines_position_idx').on(t.invoiceId, t.position)],
);
