import { z } from 'zod';
import { PLAN_ALLOWANCES } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { MAX_INT32, wholeNumberFromText } from './numbers.ts';
import { PAYMENT_METHODS, PLAN_TIERS, PLAN_TYPES } from './plans.ts';
import { QNT_DECIMALS } from './qnt.ts';

/*
 * Subscription tiers (issue 33 §3; spec §2 "an administrator create/edit form for subscription
 * tiers", §3 Subscription tier, §9), under /api/account-plan/management/subscription-tiers, for
 * management-admin. A tier is a row of the plan catalogue customers buy from (`rate_plans`, the
 * trial aside): the spec's fields (name, blockchains with 0 meaning all, product id, QNT price,
 * short and full description, order) and what the customer's plans table shows beside them.
 *
 * One schema for the request (ZSubscriptionTierInput, what the server validates) and the form
 * (ZSubscriptionTierForm: the same fields as typed text — pounds, QNT, dollars — read into the
 * request's units and then checked by the request's own rules), so both sides refuse alike and a
 * field's error has the same name on the wire as in the form.
 */

/** The limits of a tier's fields; the price caps are spec §9's. */
export const TIER_LIMITS = {
  nameMax: 100,
  productIdMax: 100,
  shortDescriptionMax: 200,
  fullDescriptionMax: 2000,
  /** Spec §9: pay-as-you-go credits at most $1.20 each. */
  paygCreditPriceMaxUsdCents: 120,
  /** Spec §9: annual credit bundles at most $1.10 a credit including VAT. */
  bundleCreditPriceMaxUsdCents: 110,
  bundlesMax: 10,
  upfrontMonthsMax: 24,
  /** More tiers than any catalogue needs; bounds the reorder request. */
  tiersMax: 200,
} as const;

export const TIER_MESSAGES = {
  wholeNumber: 'Enter a whole number, 0 or greater.',
  positiveNumber: 'Enter a whole number greater than 0.',
  amount: (decimals: number) =>
    decimals === 0 ? 'Enter a whole amount.' : `Enter an amount with at most ${decimals} decimals.`,
  tooLarge: 'This amount is too large.',
  mustBePositive: 'Enter an amount greater than 0.',
  productId: 'Letters, digits and _ . : - only.',
  paymentMethods: 'Choose at least one payment method.',
  duplicateMethod: 'A payment method is listed twice.',
  upfrontMonths: `Enter 1 to ${TIER_LIMITS.upfrontMonthsMax} months, or leave it empty.`,
  paygFee: 'Pay as you go has no fee: its credits are billed at the end of each month.',
  paygCreditPrice: 'Pay as you go needs the price of a credit.',
  paygCreditPriceMax: 'A pay-as-you-go credit costs at most $1.20.',
  paygQntPrice: 'Pay as you go has no annual fee to quote in QNT.',
  paygUpfront: 'Pay as you go has no fee to pay upfront.',
  paygBundles: 'Pay as you go bills the credits used: it sells no credit bundles.',
  paygBankTransfer:
    'Pay as you go is not paid by bank transfer: its month-end bill would stay open for the transfer’s time.',
  annualFee: 'The annual subscription needs its annual fee.',
  annualCreditPrice: 'The annual subscription sells credits in bundles, not one by one. Leave it empty.',
  bundleCreditPriceMax: 'A bundle costs at most $1.10 a credit including VAT.',
  duplicateBundle: 'Another bundle has this number of credits.',
  bundlesMax: `At most ${TIER_LIMITS.bundlesMax} bundles.`,
} as const;

const text = (max: number) =>
  z
    .string({ error: FIELD_MESSAGES.required })
    .trim()
    .min(1, { message: FIELD_MESSAGES.required })
    .max(max, { message: FIELD_MESSAGES.tooLong(max) });

/** A whole number from `min` (an allowance, credits), at most what an `integer` column holds. */
const wholeNumber = (min: 0 | 1) =>
  z
    .number({ error: min === 0 ? TIER_MESSAGES.wholeNumber : TIER_MESSAGES.positiveNumber })
    .int({ message: min === 0 ? TIER_MESSAGES.wholeNumber : TIER_MESSAGES.positiveNumber })
    .min(min, { message: min === 0 ? TIER_MESSAGES.wholeNumber : TIER_MESSAGES.positiveNumber })
    .max(MAX_INT32, { message: TIER_MESSAGES.tooLarge });

/** Money in minor units (pence, US cents) stored in an `integer` column. */
const minorUnits = (min: 0 | 1) =>
  z
    .number({ error: TIER_MESSAGES.amount(2) })
    .int({ message: TIER_MESSAGES.amount(2) })
    .min(min, { message: min === 0 ? TIER_MESSAGES.amount(2) : TIER_MESSAGES.mustBePositive })
    .max(MAX_INT32, { message: TIER_MESSAGES.tooLarge });

export const ZTierAllowances = z
  .object(
    Object.fromEntries(PLAN_ALLOWANCES.map((key) => [key, wholeNumber(0)])) as {
      [K in (typeof PLAN_ALLOWANCES)[number]]: ReturnType<typeof wholeNumber>;
    },
  )
  .meta({ id: 'TierAllowances' });

/** A credit bundle the tier sells; `id` keeps an existing bundle (orders name it), none adds one. */
export const ZTierBundleInput = z
  .object({
    id: z.uuid().optional(),
    credits: wholeNumber(1),
    /** The bundle's price including VAT, in US cents. */
    priceUsdCents: minorUnits(1),
  })
  .refine((bundle) => bundle.priceUsdCents <= bundle.credits * TIER_LIMITS.bundleCreditPriceMaxUsdCents, {
    path: ['priceUsdCents'],
    message: TIER_MESSAGES.bundleCreditPriceMax,
  })
  .meta({ id: 'TierBundleRequest' });

const bundleList = <T extends z.ZodType<{ credits: number }>>(bundle: T) =>
  z
    .array(bundle)
    .max(TIER_LIMITS.bundlesMax, { message: TIER_MESSAGES.bundlesMax })
    .superRefine((bundles, ctx) => {
      bundles.forEach((row, index) => {
        if (bundles.findIndex((other) => other.credits === row.credits) !== index) {
          ctx.addIssue({ code: 'custom', path: [index, 'credits'], message: TIER_MESSAGES.duplicateBundle });
        }
      });
    });

/** The request's fields, each with its own rules (the form reads its text into these). */
const FIELDS = {
  name: text(TIER_LIMITS.nameMax),
  type: z.enum(PLAN_TYPES, { error: FIELD_MESSAGES.required }),
  tier: z.enum(PLAN_TIERS, { error: FIELD_MESSAGES.required }),
  /** The card provider's product (Stripe `prod_…`); null without one. */
  productId: z
    .string()
    .trim()
    .min(1, { message: TIER_MESSAGES.productId })
    .max(TIER_LIMITS.productIdMax, { message: FIELD_MESSAGES.tooLong(TIER_LIMITS.productIdMax) })
    .regex(/^[\w.:-]+$/, { message: TIER_MESSAGES.productId })
    .nullable(),
  shortDescription: text(TIER_LIMITS.shortDescriptionMax),
  fullDescription: text(TIER_LIMITS.fullDescriptionMax),
  /** The annual fee in pence (0 for pay as you go). */
  feeGbpMinor: minorUnits(0),
  /** The annual fee in QNT, in wei (a decimal string); null without one. */
  qntPrice: z
    .string()
    .regex(/^\d{1,40}$/, { message: TIER_MESSAGES.amount(QNT_DECIMALS) })
    .nullable(),
  /** Pay as you go: a credit's price billed at month end, in US cents. */
  creditPriceUsdCents: minorUnits(1).nullable(),
  /** The upfront period offered ('first {duration} months upfront'); null: none. */
  upfrontMonths: z
    .number({ error: TIER_MESSAGES.upfrontMonths })
    .int({ message: TIER_MESSAGES.upfrontMonths })
    .min(1, { message: TIER_MESSAGES.upfrontMonths })
    .max(TIER_LIMITS.upfrontMonthsMax, { message: TIER_MESSAGES.upfrontMonths })
    .nullable(),
  paymentMethods: z
    .array(z.enum(PAYMENT_METHODS))
    .min(1, { message: TIER_MESSAGES.paymentMethods })
    .refine((methods) => new Set(methods).size === methods.length, { message: TIER_MESSAGES.duplicateMethod }),
  allowances: ZTierAllowances,
  creditBundles: bundleList(ZTierBundleInput),
};

type TierShape = {
  type: (typeof PLAN_TYPES)[number];
  feeGbpMinor: number;
  qntPrice: string | null;
  creditPriceUsdCents: number | null;
  upfrontMonths: number | null;
  paymentMethods: (typeof PAYMENT_METHODS)[number][];
  creditBundles: unknown[];
};
type TierField = keyof TierShape;

type Rule = { path: TierField; reads: TierField[]; holds: (tier: TierShape) => boolean; message: string };

/** Pay as you go: no fee (its credits are billed at month end, at most $1.20 each), no bundles, no bank transfer. */
const PAYG_RULES: Rule[] = [
  { path: 'feeGbpMinor', reads: ['feeGbpMinor'], holds: (t) => t.feeGbpMinor === 0, message: TIER_MESSAGES.paygFee },
  {
    path: 'creditPriceUsdCents',
    reads: ['creditPriceUsdCents'],
    holds: (t) => t.creditPriceUsdCents !== null,
    message: TIER_MESSAGES.paygCreditPrice,
  },
  {
    path: 'creditPriceUsdCents',
    reads: ['creditPriceUsdCents'],
    holds: (t) => (t.creditPriceUsdCents ?? 0) <= TIER_LIMITS.paygCreditPriceMaxUsdCents,
    message: TIER_MESSAGES.paygCreditPriceMax,
  },
  { path: 'qntPrice', reads: ['qntPrice'], holds: (t) => t.qntPrice === null, message: TIER_MESSAGES.paygQntPrice },
  {
    path: 'upfrontMonths',
    reads: ['upfrontMonths'],
    holds: (t) => t.upfrontMonths === null,
    message: TIER_MESSAGES.paygUpfront,
  },
  {
    path: 'creditBundles',
    reads: ['creditBundles'],
    holds: (t) => t.creditBundles.length === 0,
    message: TIER_MESSAGES.paygBundles,
  },
  {
    path: 'paymentMethods',
    reads: ['paymentMethods'],
    holds: (t) => !t.paymentMethods.includes('BANK_TRANSFER'),
    message: TIER_MESSAGES.paygBankTransfer,
  },
];

/** The annual subscription: its fee, and credits sold in bundles rather than one by one. */
const ANNUAL_RULES: Rule[] = [
  { path: 'feeGbpMinor', reads: ['feeGbpMinor'], holds: (t) => t.feeGbpMinor > 0, message: TIER_MESSAGES.annualFee },
  {
    path: 'creditPriceUsdCents',
    reads: ['creditPriceUsdCents'],
    holds: (t) => t.creditPriceUsdCents === null,
    message: TIER_MESSAGES.annualCreditPrice,
  },
];

/**
 * The rules between fields, by plan type (docs/decisions/plans-and-orders.md: pay as you go has
 * no fee and bills its credits at month end, not by bank transfer; the annual subscription has its
 * fee and sells bundles; spec §9's price caps). Each is checked once the fields it reads are
 * valid, so it shows beside the fields' own errors.
 */
const RULES: Rule[] = [
  ...PAYG_RULES.map((rule) => ({ ...rule, holds: (t: TierShape) => t.type !== 'PAY_AS_YOU_GO' || rule.holds(t) })),
  ...ANNUAL_RULES.map((rule) => ({ ...rule, holds: (t: TierShape) => t.type !== 'SUBSCRIPTION' || rule.holds(t) })),
];

function withRules<T extends z.ZodType<TierShape>>(schema: T): T {
  return RULES.reduce(
    (checked, rule) =>
      checked.refine(rule.holds, {
        path: [rule.path],
        message: rule.message,
        when: ({ issues }) => !issues.some((issue) => ['type', ...rule.reads].includes(String(issue.path?.[0]))),
      }) as unknown as T,
    schema,
  );
}

/** POST and PUT /management/subscription-tiers: a tier as staff set it. */
export const ZSubscriptionTierInput = withRules(z.object(FIELDS)).meta({ id: 'SubscriptionTierRequest' });
export type TSubscriptionTierInput = z.output<typeof ZSubscriptionTierInput>;

// ── The form: the same fields as typed text ────────────────────────────────────────────────────

/**
 * "6,000.50" (digits, optional thousands separators, at most `decimals` decimals) → its amount in
 * the smallest unit (600050n for 2 decimals); null for anything else (a sign, an exponent, "").
 * Exact for QNT's 18 decimals, where a float would not be.
 */
export function unitsFromDecimalText(input: string, decimals: number): bigint | null {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(input.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  const scale = 10n ** BigInt(decimals);
  return BigInt(match[1]!.replaceAll(',', '')) * scale + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** The inverse, for a form's starting text: (600050n, 2) → "6000.50"; (75×10¹⁸, 18) → "75". */
export function decimalTextFromUnits(units: bigint | number, decimals: number, { fixed = false } = {}): string {
  const value = BigInt(units);
  const scale = 10n ** BigInt(decimals);
  const whole = (value / scale).toString();
  let fraction = (value % scale).toString().padStart(decimals, '0');
  if (!fixed) fraction = fraction.replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A typed amount read into its smallest unit, then checked by the request's field (`wire`). */
function amountText<T extends z.ZodType<unknown, string | number | null>>(
  decimals: number,
  wire: T,
  { optional = false, asText = false } = {},
) {
  return z
    .string()
    .transform((typed, ctx) => {
      if (typed.trim() === '') {
        if (optional) return null;
        ctx.addIssue({ code: 'custom', message: FIELD_MESSAGES.required });
        return z.NEVER;
      }
      const units = unitsFromDecimalText(typed, decimals);
      if (units === null) {
        ctx.addIssue({ code: 'custom', message: TIER_MESSAGES.amount(decimals) });
        return z.NEVER;
      }
      return asText ? units.toString() : Number(units);
    })
    .pipe(wire);
}

/** A typed whole number (thousands separators allowed), then checked by the request's field. */
function wholeText<T extends z.ZodType<unknown, number | null>>(wire: T, { optional = false } = {}) {
  return z
    .string()
    .transform((typed) => (optional && typed.trim() === '' ? null : wholeNumberFromText(typed, true)))
    .pipe(wire);
}

/**
 * The create/edit form of /subscription-management: the request's fields as typed text — the fee
 * in pounds, the QNT price in QNT, prices of credits and bundles in US dollars — read into the
 * request's units and checked by its own rules (the same names, so a server's refusal of a field
 * lands under it).
 */
export const ZSubscriptionTierForm = withRules(
  z.object({
    ...FIELDS,
    type: FIELDS.type,
    productId: z
      .string()
      .transform((typed) => (typed.trim() === '' ? null : typed))
      .pipe(FIELDS.productId),
    feeGbpMinor: amountText(2, FIELDS.feeGbpMinor),
    qntPrice: amountText(QNT_DECIMALS, FIELDS.qntPrice, { optional: true, asText: true }),
    creditPriceUsdCents: amountText(2, FIELDS.creditPriceUsdCents, { optional: true }),
    upfrontMonths: wholeText(FIELDS.upfrontMonths, { optional: true }),
    allowances: z.object(
      Object.fromEntries(PLAN_ALLOWANCES.map((key) => [key, wholeText(FIELDS.allowances.shape[key])])) as {
        [K in (typeof PLAN_ALLOWANCES)[number]]: ReturnType<typeof wholeText<ReturnType<typeof wholeNumber>>>;
      },
    ),
    creditBundles: bundleList(
      z
        .object({
          id: z.string().optional(),
          credits: wholeText(wholeNumber(1)),
          priceUsdCents: amountText(2, minorUnits(1)),
        })
        .pipe(ZTierBundleInput),
    ),
  }),
);
export type TSubscriptionTierFormValues = z.input<typeof ZSubscriptionTierForm>;

// ── Answers ────────────────────────────────────────────────────────────────────────────────────

export const ZSubscriptionTier = z
  .object({
    id: z.uuid(),
    /** The row's stable name (the seed matches on it); made from the name at creation. */
    code: z.string(),
    name: z.string(),
    type: z.enum(PLAN_TYPES),
    tier: z.enum(PLAN_TIERS),
    productId: z.string().nullable(),
    shortDescription: z.string(),
    fullDescription: z.string(),
    /** The position in the catalogue (1 first): the customers' plans table follows it. */
    order: z.number().int(),
    feeGbpMinor: z.number().int(),
    qntPrice: z.string().nullable(),
    creditPriceUsdCents: z.number().int().nullable(),
    upfrontMonths: z.number().int().nullable(),
    paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
    allowances: z.record(z.enum(PLAN_ALLOWANCES), z.number().int()),
    creditBundles: z.array(
      z.object({
        id: z.uuid(),
        credits: z.number().int(),
        priceUsdCents: z.number().int(),
        /** Orders name it: it can be repriced but not removed. */
        isOrdered: z.boolean(),
      }),
    ),
    /** Hidden from sale; the accounts on it keep it. */
    retired: z.boolean(),
    /** Accounts whose plan (or next period's plan) it is, and orders placed for it or its bundles. */
    usage: z.object({ accounts: z.number().int(), orders: z.number().int() }),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'SubscriptionTier' });
export type TSubscriptionTier = z.infer<typeof ZSubscriptionTier>;

export const ZSubscriptionTiersResponse = z
  .object({ tiers: z.array(ZSubscriptionTier) })
  .meta({ id: 'SubscriptionTiersResponse' });
export type TSubscriptionTiersResponse = z.infer<typeof ZSubscriptionTiersResponse>;

/** PUT /management/subscription-tiers/order: every tier once, first to last. */
export const ZReorderSubscriptionTiersRequest = z
  .object({
    tierIds: z
      .array(z.uuid())
      .min(1)
      .max(TIER_LIMITS.tiersMax)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'A tier is listed twice.' }),
  })
  .meta({ id: 'ReorderSubscriptionTiersRequest' });
export type TReorderSubscriptionTiersRequest = z.infer<typeof ZReorderSubscriptionTiersRequest>;

/** Whether a tier is in use: then it cannot be deleted (only retired), nor change its type or tier. */
export const isTierInUse = (tier: Pick<TSubscriptionTier, 'usage'>) => tier.usage.accounts + tier.usage.orders > 0;

/** A form's starting text: empty for a new tier, else the tier's values in the form's units. */
export function subscriptionTierFormValues(tier?: TSubscriptionTier): TSubscriptionTierFormValues {
  const allowances = Object.fromEntries(
    PLAN_ALLOWANCES.map((key) => [key, tier ? String(tier.allowances[key] ?? 0) : '']),
  ) as TSubscriptionTierFormValues['allowances'];
  if (!tier) {
    return {
      name: '',
      type: '' as never,
      tier: '' as never,
      productId: '',
      shortDescription: '',
      fullDescription: '',
      feeGbpMinor: '0',
      qntPrice: '',
      creditPriceUsdCents: '',
      upfrontMonths: '',
      paymentMethods: [],
      allowances,
      creditBundles: [],
    };
  }
  return {
    name: tier.name,
    type: tier.type,
    tier: tier.tier,
    productId: tier.productId ?? '',
    shortDescription: tier.shortDescription,
    fullDescription: tier.fullDescription,
    feeGbpMinor: decimalTextFromUnits(tier.feeGbpMinor, 2, { fixed: true }),
    qntPrice: tier.qntPrice === null ? '' : decimalTextFromUnits(BigInt(tier.qntPrice), QNT_DECIMALS),
    creditPriceUsdCents:
      tier.creditPriceUsdCents === null ? '' : decimalTextFromUnits(tier.creditPriceUsdCents, 2, { fixed: true }),
    upfrontMonths: tier.upfrontMonths === null ? '' : String(tier.upfrontMonths),
    paymentMethods: [...tier.paymentMethods],
    allowances,
    creditBundles: tier.creditBundles.map((bundle) => ({
      id: bundle.id,
      credits: String(bundle.credits),
      priceUsdCents: decimalTextFromUnits(bundle.priceUsdCents, 2, { fixed: true }),
    })),
  };
}
