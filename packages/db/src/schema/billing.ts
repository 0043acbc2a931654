import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
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
 * Why a plan is in its status (docs/decisions/plans-and-orders.md, "The account plan's transitions"). TRIAL: on the trial;
 * AWAITING_PAYMENT: an order waits for its payment (PENDING); RENEWAL_DUE: the period ended and
 * its renewal order waits for payment (still ACTIVE within the grace days); RENEWAL_FAILED,
 * TRIAL_ENDED, CANCELLED: why it is INACTIVE; STAFF: set by staff (DISABLED).
 */
export type PlanStatusReason =
  'TRIAL' | 'AWAITING_PAYMENT' | 'RENEWAL_DUE' | 'RENEWAL_FAILED' | 'TRIAL_ENDED' | 'CANCELLED' | 'STAFF';

/**
 * What an account bought with its plan (issue 33 §3): the allowances, the gateway's rate and the
 * pay-as-you-go credit price as the tier had them when the order was placed. Staff may edit a tier
 * at any time; an account keeps these until its plan changes or renews.
 */
export type PlanTerms = {
  applications: number;
  tokens: number;
  bridges: number;
  blockchains: number;
  mainnets: number;
  testnets: number;
  rateLimit: number;
  creditPriceUsdCents: number | null;
};

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
    /** The terms of the plan in force, fixed when it was bought (null: read the tier, as before issue 33). */
    terms: jsonb('terms').$type<PlanTerms>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('account_plans_period_end_idx').on(t.periodEnd),
    index('account_plans_trial_end_idx').on(t.trialEndsAt),
    // A tier's use (the tiers screen's counts, a delete's foreign-key checks).
    index('account_plans_rate_plan_idx').on(t.ratePlanId),
    index('account_plans_next_rate_plan_idx').on(t.nextRatePlanId),
  ],
);

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
    /**
     * How many times its payment was undone (a chain took back the QNT that paid it, issue 27 §4):
     * the references of its next payment and credits carry it (`order:<id>:<n>`), so paying it
     * again moves money again.
     */
    reversals: integer('reversals').notNull().default(0),
    /**
     * The account's plan as it was just before this order's payment made it ACTIVE (PLAN and
     * RENEWAL orders; the server's PlanSnapshot): a payment taken back puts it back (issue 27 §4).
     */
    planBefore: jsonb('plan_before').$type<Record<string, unknown>>(),
    /** A PLAN or RENEWAL order: the tier's terms when it was placed, which its payment puts in force. */
    terms: jsonb('terms').$type<PlanTerms>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('orders_account_key_unique').on(t.accountId, t.idempotencyKey),
    index('orders_account_idx').on(t.accountId, t.createdAt),
    index('orders_status_idx').on(t.status),
    // The staff's orders screen (issue 33 §5): newest first, all or by status.
    index('orders_created_idx').on(t.createdAt, t.id),
    index('orders_status_created_idx').on(t.status, t.createdAt, t.id),
    // A tier's or a bundle's use (the tiers screen, a delete's foreign-key checks).
    index('orders_rate_plan_idx').on(t.ratePlanId),
    index('orders_credit_bundle_idx').on(t.creditBundleId),
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
export type InvoiceKind = 'ORDER' | 'MONTHLY';
export type VatTreatment = 'STANDARD' | 'REVERSE_CHARGE' | 'OUTSIDE_SCOPE';

/** The customer as an invoice names them, kept when it is numbered (later edits do not change it). */
export type InvoiceCustomer = {
  companyName: string;
  address: string[];
  country: string | null;
  registrationNumber: string | null;
  vatNumber: string | null;
  website: string | null;
  telephone: string | null;
  email: string | null;
};

/**
 * An invoice (issue 18). An ORDER invoice is made, numbered and OPEN (PAID if nothing is to pay)
 * with its order; a MONTHLY one is the close's: a DRAFT without a number through the grace window,
 * then numbered and OPEN with the USAGE order that collects it. Amounts in pence: subtotal (net),
 * VAT, total (gross); the totals in US cents at `usd_per_gbp`; the total in QNT (wei) at
 * `gbp_per_qnt` read at `qnt_rate_at`. Numbers come from invoice_counters, so drafts have none
 * and numbered ones have no gaps (the CHECK below).
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
    kind: text('kind').$type<InvoiceKind>().notNull().default('ORDER'),
    /** The printed number (`INV-000042`), and the counter's value it was made from (the sort key). */
    number: text('number').unique(),
    numberSeq: bigint('number_seq', { mode: 'number' }).unique(),
    status: text('status').$type<InvoiceStatus>().notNull(),
    currency: text('currency').notNull().default('GBP'),
    subtotalMinor: integer('subtotal_minor').notNull(),
    vatMinor: integer('vat_minor').notNull().default(0),
    totalMinor: integer('total_minor').notNull(),
    amountPaidMinor: integer('amount_paid_minor').notNull().default(0),
    vatTreatment: text('vat_treatment').$type<VatTreatment>().notNull().default('OUTSIDE_SCOPE'),
    vatRateBp: integer('vat_rate_bp').notNull().default(0),
    totalUsdCents: bigint('total_usd_cents', { mode: 'number' }).notNull().default(0),
    usdPerGbp: text('usd_per_gbp'),
    qntAmountWei: numeric('qnt_amount_wei', { precision: 78, scale: 0, mode: 'bigint' }),
    gbpPerQnt: text('gbp_per_qnt'),
    qntRateAt: timestamp('qnt_rate_at', { withTimezone: true }),
    customer: jsonb('customer').$type<InvoiceCustomer>(),
    termsDays: integer('terms_days').notNull().default(14),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    /** Usage stored up to this time is on the invoice (a month's invoice; the next one counts later records). */
    usageCutAt: timestamp('usage_cut_at', { withTimezone: true }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    finalisedAt: timestamp('finalised_at', { withTimezone: true }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The list's Last Change Date. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('invoices_account_idx').on(t.accountId, t.issuedAt),
    index('invoices_account_number_idx').on(t.accountId, t.numberSeq),
    uniqueIndex('invoices_monthly_period_uq')
      .on(t.accountId, t.periodEnd)
      .where(sql`kind = 'MONTHLY'`),
    index('invoices_status_kind_period_idx').on(t.status, t.kind, t.periodEnd),
    check('invoices_numbered_unless_draft', sql`(status = 'DRAFT') = (number_seq is null)`),
  ],
);

/**
 * One row per number series (INV, CN, RCT) with the last number given. A document takes its
 * number by `update … set last = last + n returning` in the transaction that makes it: a row
 * lock, not a sequence, so a rolled-back transaction gives its numbers back and none is skipped.
 */
export const invoiceCounters = pgTable('invoice_counters', {
  series: text('series').primaryKey(),
  last: bigint('last', { mode: 'number' }).notNull().default(0),
});

/**
 * A month's close, per period end: when its drafts were made and when they were numbered (the
 * close's progress, and its record; a re-run of a finalised period makes nothing).
 */
export const invoiceCloses = pgTable('invoice_closes', {
  periodEnd: timestamp('period_end', { withTimezone: true }).primaryKey(),
  periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
  draftedAt: timestamp('drafted_at', { withTimezone: true }),
  finalisedAt: timestamp('finalised_at', { withTimezone: true }),
  invoices: integer('invoices').notNull().default(0),
});

/** Who an account's invoices are made out to (PUT /user/billing-details). */
export const billingDetails = pgTable('billing_details', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  companyName: text('company_name').notNull(),
  addressLine1: text('address_line1').notNull(),
  addressLine2: text('address_line2'),
  city: text('city').notNull(),
  postcode: text('postcode'),
  country: text('country').notNull(),
  registrationNumber: text('registration_number'),
  vatNumber: text('vat_number'),
  vatNumberStatus: text('vat_number_status').$type<'NONE' | 'VALID' | 'UNCHECKED'>().notNull().default('NONE'),
  vatCheckedAt: timestamp('vat_checked_at', { withTimezone: true }),
  website: text('website'),
  telephone: text('telephone'),
  email: text('email'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A receipt for a paid invoice (POST /user/invoice/create-receipt): one per invoice, numbered RCT-. */
export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .unique()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    number: text('number').notNull().unique(),
    amountGbpMinor: integer('amount_gbp_minor').notNull(),
    method: text('method').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('receipts_account_idx').on(t.accountId)],
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
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    unitPriceMinor: integer('unit_price_minor').notNull(),
    /** Pounds per unit as a decimal string when it is not whole pence (a credit's price); else null. */
    unitPrice: text('unit_price'),
    vatRateBp: integer('vat_rate_bp').notNull().default(0),
    vatMinor: integer('vat_minor').notNull().default(0),
    amountMinor: integer('amount_minor').notNull(),
  },
  (t) => [uniqueIndex('invoice_lines_position_idx').on(t.invoiceId, t.position)],
);
