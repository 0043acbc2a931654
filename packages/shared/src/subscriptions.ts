import { z } from 'zod';
import { PLAN_STATUSES } from './constants.ts';
import { MAX_INT32 } from './numbers.ts';
import { PAYMENT_METHODS, PLAN_TIERS, PLAN_TYPES, ZPlanAllowances } from './plans.ts';
import { ZQntHolding, ZQntPayment } from './qnt.ts';

/*
 * The account's plan and its orders (account-plan service, spec §2 upgrade stepper and
 * subscriptions, §4 plan statuses and payment methods, §7): GET /subscription, POST /order/plan,
 * POST /order/credits, POST /order/track, the cancel and downgrade calls of the plan page, and
 * the staff's record of a bank transfer. Money: pence and US cents as integers.
 */

/** TRIAL is the plan of a new account; it is never on sale. */
export const ACCOUNT_PLAN_TYPES = [...PLAN_TYPES, 'TRIAL'] as const;
export type TAccountPlanType = (typeof ACCOUNT_PLAN_TYPES)[number];

const RANK: Record<TAccountPlanType, number> = { TRIAL: 0, PAY_AS_YOU_GO: 1, SUBSCRIPTION: 3 };

/**
 * The order of plans (docs/decisions/plans-and-orders.md, "Upgrades, downgrades and cancelling"): trial < pay as you
 * go standard < advance < annual standard < advance. An upgrade goes up it; a downgrade down.
 */
export function planRank(plan: { type: TAccountPlanType; tier: (typeof PLAN_TIERS)[number] }): number {
  return RANK[plan.type] + (plan.type !== 'TRIAL' && plan.tier === 'advance' ? 1 : 0);
}

/** Why a plan is in its status (docs/decisions/plans-and-orders.md, "The account plan's transitions"). */
export const PLAN_STATUS_REASONS = [
  'TRIAL',
  'AWAITING_PAYMENT',
  'RENEWAL_DUE',
  'RENEWAL_FAILED',
  'TRIAL_ENDED',
  'CANCELLED',
  'STAFF',
] as const;
export type TPlanStatusReason = (typeof PLAN_STATUS_REASONS)[number];

/** Trial and renewal constants (docs/decisions/plans-and-orders.md). */
export const PLAN_TERMS = {
  trialDays: 30,
  /** Reminder emails this many days before the trial ends. */
  trialReminderDays: [7, 1],
  /** A renewal order waits this many days for its payment before the plan turns INACTIVE. */
  renewalGraceDays: 14,
  /** A bank transfer is due this many days after the order (the invoice's terms). */
  bankTransferTermsDays: 14,
  /** The dashboard and top bar warn when the available credits fall to this or below. */
  lowCreditsThreshold: 20,
} as const;

/** USAGE: a pay-as-you-go month's bill for the credits used on credit. */
export const ORDER_KINDS = ['PLAN', 'CREDITS', 'RENEWAL', 'USAGE'] as const;
export const ORDER_STATUSES = ['AWAITING_PAYMENT', 'PAID', 'CANCELLED'] as const;
export type TOrderStatus = (typeof ORDER_STATUSES)[number];

/** The three policies the payment step asks the customer to agree to (spec §2, §5). */
export const ZTermsAcceptance = z
  .object({
    termsAndConditions: z.literal(true, { error: 'Please agree to the terms and conditions.' }),
    acceptableUsePolicy: z.literal(true, { error: 'Please agree to the acceptable use policy.' }),
    privacyPolicy: z.literal(true, { error: 'Please agree to the privacy policy.' }),
  })
  .meta({ id: 'TermsAcceptance' });

/** POST /order/plan: a plan, optionally its upfront months and a credit bundle. */
export const ZPlanOrderRequest = z
  .object({
    /** Chosen by the SPA once per checkout: a repeated request answers the same order. */
    idempotencyKey: z.uuid(),
    ratePlanId: z.uuid(),
    upfrontMonths: z.number().int().min(1).max(36).nullable().optional(),
    creditBundleId: z.uuid().nullable().optional(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    terms: ZTermsAcceptance,
  })
  .meta({ id: 'PlanOrderRequest' });
export type TPlanOrderRequest = z.infer<typeof ZPlanOrderRequest>;

/** POST /order/credits: a credit bundle outside the upgrade journey (plans that sell them). */
export const ZCreditsOrderRequest = z
  .object({
    idempotencyKey: z.uuid(),
    creditBundleId: z.uuid(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    terms: ZTermsAcceptance,
  })
  .meta({ id: 'CreditsOrderRequest' });
export type TCreditsOrderRequest = z.infer<typeof ZCreditsOrderRequest>;

/** POST /order/track: the caller's order, by id. */
export const ZOrderTrackRequest = z.object({ orderId: z.uuid() }).meta({ id: 'OrderTrackRequest' });
export type TOrderTrackRequest = z.infer<typeof ZOrderTrackRequest>;

/** Where to send a bank transfer, and what to quote. */
export const ZBankTransferInstructions = z
  .object({
    accountName: z.string(),
    bankName: z.string(),
    sortCode: z.string(),
    accountNumber: z.string(),
    iban: z.string(),
    bic: z.string(),
    reference: z.string(),
    amountGbpMinor: z.number().int(),
    dueAt: z.string(),
  })
  .meta({ id: 'BankTransferInstructions' });

export const ZOrder = z
  .object({
    id: z.uuid(),
    reference: z.string(),
    kind: z.enum(ORDER_KINDS),
    status: z.enum(ORDER_STATUSES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    ratePlan: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    upfrontMonths: z.number().int().nullable(),
    bundle: z.object({ id: z.uuid(), credits: z.number().int(), priceUsdCents: z.number().int() }).nullable(),
    feeGbpMinor: z.number().int(),
    bundleUsdCents: z.number().int(),
    /** US dollars per pound the bundle was converted at, and when that rate was read. */
    usdPerGbp: z.string(),
    rateAt: z.string(),
    totalGbpMinor: z.number().int(),
    /** What has been received so far, in pence. */
    paidGbpMinor: z.number().int(),
    periodStart: z.string().nullable(),
    periodEnd: z.string().nullable(),
    dueAt: z.string(),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
    invoiceId: z.uuid(),
    /** Present for an unpaid bank-transfer order. */
    bankTransfer: ZBankTransferInstructions.nullable(),
    /** Present for an order paid in QNT: its state, live. */
    qnt: ZQntPayment.nullable().optional(),
  })
  .meta({ id: 'Order' });
export type TOrder = z.infer<typeof ZOrder>;

/** What the account uses of each allowance now. */
export const ZAllowanceUsage = z
  .object({
    applications: z.number().int(),
    tokens: z.number().int(),
    bridges: z.number().int(),
    blockchains: z.number().int(),
    mainnets: z.number().int(),
    testnets: z.number().int(),
  })
  .meta({ id: 'AllowanceUsage' });
export type TAllowanceUsage = z.infer<typeof ZAllowanceUsage>;

/** GET /subscription: the account's plan, its dates, allowances and usage, credits and open order. */
export const ZSubscription = z
  .object({
    plan: z.object({
      id: z.uuid(),
      code: z.string(),
      name: z.string(),
      type: z.enum(ACCOUNT_PLAN_TYPES),
      tier: z.enum(PLAN_TIERS),
      billing: z.enum(['MONTHLY', 'ANNUAL', 'TRIAL']),
      feeGbpMinor: z.number().int(),
      creditPriceUsdCents: z.number().int().nullable(),
    }),
    status: z.enum(PLAN_STATUSES),
    statusReason: z.enum(PLAN_STATUS_REASONS).nullable(),
    /** Whether the allowances are in service (ACTIVE, or PENDING behind an active plan). */
    inService: z.boolean(),
    startedAt: z.string(),
    /** The renewal date, or the end of the period when cancelled; null on the trial. */
    periodEnd: z.string().nullable(),
    trialEndsAt: z.string().nullable(),
    upfrontMonths: z.number().int().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    /** A downgrade chosen for the next period. */
    nextPlan: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    allowances: ZPlanAllowances,
    usage: ZAllowanceUsage,
    credits: z.object({ available: z.number().int(), balance: z.number().int(), floor: z.number().int() }),
    lowCredits: z.boolean(),
    pendingOrder: ZOrder.nullable(),
    /** Every order of the account that waits for its payment, newest first (credit top-ups included). */
    openOrders: z.array(ZOrder),
    /** QNT held for the customer and their deposit address. */
    qnt: ZQntHolding.optional(),
    /** The payment methods this installation takes now (QNT and card arrive with their adapters). */
    availablePaymentMethods: z.array(z.enum(PAYMENT_METHODS)),
  })
  .meta({ id: 'Subscription' });
export type TSubscription = z.infer<typeof ZSubscription>;

/** POST /subscription/downgrade: the plan for the next period (a lower plan; applied at the period end). */
export const ZDowngradeRequest = z.object({ ratePlanId: z.uuid().nullable() }).meta({ id: 'DowngradeRequest' });

/** Staff record a bank transfer received for an order. `receiptId` (the bank's id) makes it idempotent. */
export const ZRecordReceiptRequest = z
  .object({
    receiptId: z.string().trim().min(1).max(100),
    /** Stored in an `integer` column; at most what the order still needs (a rule of the service). */
    amountGbpMinor: z.number().int().positive().max(MAX_INT32),
    receivedAt: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'RecordReceiptRequest' });
export type TRecordReceiptRequest = z.infer<typeof ZRecordReceiptRequest>;

export const ZOrdersResponse = z.object({ orders: z.array(ZOrder) }).meta({ id: 'OrdersResponse' });
