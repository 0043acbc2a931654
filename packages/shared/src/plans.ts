import { z } from 'zod';

/*
 * The plan catalogue of the account-plan service (spec §2 plans table, §3 Subscription tier, §4,
 * §7, §9): GET /plans (every plan), GET /v2/fetch-plans (the plans table: pay as you go against
 * the annual subscription, each with its tiers), GET /rate-plan/{id}/credit-bundles.
 * Prices are integers: pounds in pence, dollars in cents, QNT in wei (a decimal string).
 */

export const PLAN_TYPES = ['PAY_AS_YOU_GO', 'SUBSCRIPTION'] as const;
export type TPlanType = (typeof PLAN_TYPES)[number];
export const PLAN_TIERS = ['standard', 'advance'] as const;
export type TPlanTier = (typeof PLAN_TIERS)[number];
/** QNT from a wallet, a card (Fiat) or a bank transfer (spec §4). */
export const PAYMENT_METHODS = ['QNT', 'FIAT', 'BANK_TRANSFER'] as const;
export type TPaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What a plan allows (blockchains 0 means all, spec §9); rateLimit in requests per second. */
export const ZPlanAllowances = z
  .object({
    applications: z.number().int().min(0),
    tokens: z.number().int().min(0),
    bridges: z.number().int().min(0),
    blockchains: z.number().int().min(0),
    mainnets: z.number().int().min(0),
    testnets: z.number().int().min(0),
    rateLimit: z.number().int().min(0),
  })
  .meta({ id: 'PlanAllowances' });
export type TPlanAllowances = z.infer<typeof ZPlanAllowances>;

export const ZRatePlan = z
  .object({
    id: z.uuid(),
    code: z.string(),
    type: z.enum(PLAN_TYPES),
    tier: z.enum(PLAN_TIERS),
    name: z.string(),
    productId: z.string().nullable(),
    shortDescription: z.string(),
    fullDescription: z.string(),
    order: z.number().int(),
    /** MONTHLY (pay as you go) or ANNUAL (the subscription, paid in advance). */
    billing: z.enum(['MONTHLY', 'ANNUAL']),
    /** The plan's own fee per billing period, in pence (0 for pay as you go). */
    feeGbpMinor: z.number().int().min(0),
    /** The annual fee in QNT, in wei (a decimal string); null without one. */
    qntPrice: z.string().regex(/^\d+$/).nullable(),
    /** Pay as you go: a credit's price billed at month end, in US cents. */
    creditPriceUsdCents: z.number().int().min(0).nullable(),
    upfrontMonths: z.number().int().min(1).nullable(),
    paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
    allowances: ZPlanAllowances,
    /** Whether the plan sells credit bundles (GET /rate-plan/{id}/credit-bundles). */
    hasCreditBundles: z.boolean(),
  })
  .meta({ id: 'RatePlan' });
export type TRatePlan = z.infer<typeof ZRatePlan>;

export const ZPlansResponse = z.object({ plans: z.array(ZRatePlan) }).meta({ id: 'PlansResponse' });
export type TPlansResponse = z.infer<typeof ZPlansResponse>;

/** The plans table of the upgrade step: one column per plan type, each with its tiers in order. */
export const ZPlanGroup = z
  .object({
    type: z.enum(PLAN_TYPES),
    /** 'Pay as you go' or 'Annual Subscription'. */
    name: z.string(),
    billing: z.enum(['MONTHLY', 'ANNUAL']),
    tiers: z.array(ZRatePlan),
  })
  .meta({ id: 'PlanGroup' });
export const ZFetchPlansResponse = z.object({ groups: z.array(ZPlanGroup) }).meta({ id: 'FetchPlansResponse' });
export type TFetchPlansResponse = z.infer<typeof ZFetchPlansResponse>;

/** The column names of the plans table (spec §2). */
export const PLAN_GROUP_NAMES: Record<TPlanType, string> = {
  PAY_AS_YOU_GO: 'Pay as you go',
  SUBSCRIPTION: 'Annual Subscription',
};

export const ZCreditBundle = z
  .object({
    id: z.uuid(),
    credits: z.number().int().positive(),
    /** The bundle's price including VAT, in US cents. */
    priceUsdCents: z.number().int().min(0),
    /** Its price per credit, in US cents (rounded to a hundredth of a cent). */
    unitPriceUsdCents: z.number().min(0),
  })
  .meta({ id: 'CreditBundle' });
export const ZCreditBundlesResponse = z
  .object({ ratePlanId: z.uuid(), bundles: z.array(ZCreditBundle) })
  .meta({ id: 'CreditBundlesResponse' });
export type TCreditBundlesResponse = z.infer<typeof ZCreditBundlesResponse>;
