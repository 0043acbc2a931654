import { boolean, integer, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** TRIAL: the plan of a new account, never on sale (is_active false). */
export type PlanType = 'PAY_AS_YOU_GO' | 'SUBSCRIPTION' | 'TRIAL';
export type PlanTier = 'standard' | 'advance';
export type PaymentMethod = 'QNT' | 'FIAT' | 'BANK_TRANSFER';

/**
 * The plan catalogue (spec §3 Subscription tier, §4 plan types and tiers, §9 prices): one row per
 * plan type and tier, with its allowances. Seeded; staff will edit them. Prices are integers:
 * fiat in minor units (pence, cents), QNT in wei.
 */
export const ratePlans = pgTable('rate_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stable name of the row (seeding matches on it), e.g. `annual-standard`. */
  code: text('code').notNull().unique(),
  type: text('type').$type<PlanType>().notNull(),
  tier: text('tier').$type<PlanTier>().notNull(),
  name: text('name').notNull(),
  /** The product id of the card provider's catalogue (Stripe), when the plan is sold by card. */
  productId: text('product_id'),
  shortDescription: text('short_description').notNull(),
  fullDescription: text('full_description').notNull(),
  sortOrder: integer('sort_order').notNull(),
  /** The plan's own fee: per year, paid in advance (SUBSCRIPTION); 0 for pay as you go. In pence. */
  feeGbpMinor: integer('fee_gbp_minor').notNull(),
  /** The annual fee in QNT (wei), as staff set it beside the pound price (spec §3 QNT price). */
  qntPrice: numeric('qnt_price', { precision: 78, scale: 0, mode: 'bigint' }),
  /** Pay as you go: the price of a credit billed at month end, in US cents. */
  creditPriceUsdCents: integer('credit_price_usd_cents'),
  /** The upfront period offered ('first {duration} months upfront'); null: none. */
  upfrontMonths: integer('upfront_months'),
  paymentMethods: text('payment_methods').array().$type<PaymentMethod[]>().notNull(),
  // Allowances. blockchains 0 means all (spec §9).
  applications: integer('applications').notNull(),
  tokens: integer('tokens').notNull(),
  bridges: integer('bridges').notNull(),
  blockchains: integer('blockchains').notNull(),
  mainnets: integer('mainnets').notNull(),
  testnets: integer('testnets').notNull(),
  /** The gateway's rate limit for the account's applications, in requests per second. */
  rateLimit: integer('rate_limit').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Credit bundles a plan sells (the annual plans: pre-purchased on a sliding scale). */
export const creditBundles = pgTable(
  'credit_bundles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ratePlanId: uuid('rate_plan_id')
      .notNull()
      .references(() => ratePlans.id, { onDelete: 'cascade' }),
    credits: integer('credits').notNull(),
    /** The bundle's price including VAT, in US cents. */
    priceUsdCents: integer('price_usd_cents').notNull(),
    sortOrder: integer('sort_order').notNull(),
  },
  (t) => [uniqueIndex('credit_bundles_plan_credits_idx').on(t.ratePlanId, t.credits)],
);
