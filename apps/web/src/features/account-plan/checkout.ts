import type { TPaymentMethod, TPlanType, TRatePlan, TSubscription } from '@connect/shared';

/** A credit bundle as GET /rate-plan/{id}/credit-bundles answers it. */
export type CreditBundle = { id: string; credits: number; priceUsdCents: number; unitPriceUsdCents: number };

/** What the plan step chose: the plan, the upfront option (when the plan has one) and a bundle (or none). */
export type Selection = {
  plan: TRatePlan;
  /** The plans table's column name ('Pay as you go' or 'Annual Subscription'). */
  groupName: string;
  isUpfront: boolean;
  bundle: CreditBundle | null;
};

/** The date `months` after `from`, on the same day where the month has it (else its last day). */
export function addMonths(from: Date, months: number): Date {
  const result = new Date(from);
  const day = result.getDate();
  result.setDate(1);
  result.setMonth(result.getMonth() + months);
  const last = new Date(result.getFullYear(), result.getMonth() + 1, 0).getDate();
  result.setDate(Math.min(day, last));
  return result;
}

/** The upfront months the order asks for, or null. */
export function upfrontMonthsOf(selection: Selection): number | null {
  return selection.isUpfront ? selection.plan.upfrontMonths : null;
}

/** The length of the first period: a month for pay as you go, a year for the subscription, or the upfront months. */
export function periodMonthsOf(selection: Selection): number {
  return upfrontMonthsOf(selection) ?? (selection.plan.billing === 'MONTHLY' ? 1 : 12);
}

/**
 * The figures of the summary step (spec §2 "Plan summary labels"). The plan's fee is in pounds and
 * a bundle in US dollars; the order converts the bundle into pounds at the day's rate when it is
 * placed (the confirmation shows that total), so before ordering the two are shown side by side.
 */
export type Summary = {
  type: TPlanType;
  subscriptionType: string;
  startDate: Date;
  renewalDate: Date;
  /** The plan's fee for a following period, in pence (0 for pay as you go). */
  renewalGbpMinor: number;
  /** The plan's fee for the first period (the upfront months when chosen), in pence. */
  planGbpMinor: number;
  bundleUsdCents: number;
  mainnets: number;
  testnets: number;
  planName: string;
  bundleCredits: number | null;
  /** The bundle's price per credit, else the pay-as-you-go price billed monthly; null when neither. */
  creditUnitUsdCents: number | null;
  upfrontMonths: number | null;
  /** The methods the order can be paid with now (`offeredMethods`), not every one the plan accepts. */
  paymentMethods: TPaymentMethod[];
};

export function summaryOf(selection: Selection, today: Date, offered: TPaymentMethod[]): Summary {
  const { plan, bundle } = selection;
  const months = periodMonthsOf(selection);
  const billedMonths = plan.billing === 'MONTHLY' ? 1 : 12;
  return {
    type: plan.type,
    subscriptionType: selection.groupName,
    startDate: today,
    renewalDate: addMonths(today, months),
    renewalGbpMinor: plan.feeGbpMinor,
    planGbpMinor: Math.round((plan.feeGbpMinor * months) / billedMonths),
    bundleUsdCents: bundle?.priceUsdCents ?? 0,
    mainnets: plan.allowances.mainnets,
    testnets: plan.allowances.testnets,
    planName: plan.name,
    bundleCredits: bundle?.credits ?? null,
    creditUnitUsdCents: bundle?.unitPriceUsdCents ?? plan.creditPriceUsdCents,
    upfrontMonths: upfrontMonthsOf(selection),
    paymentMethods: offered,
  };
}

/**
 * The most a pay-as-you-go credit costs, as spec doc 2 §9's help text states it: $1.20 per credit
 * in QNT and $1.21 including VAT (US cents). The plan's own price may be lower (the advance tier).
 */
export const PAYG_CREDIT_CAP = { qntUsdCents: 120, withVatUsdCents: 121 } as const;

/** Whether the order costs nothing now (pay as you go without a bundle): it is paid at once. */
export function isFree(summary: Pick<Summary, 'planGbpMinor' | 'bundleUsdCents'>): boolean {
  return summary.planGbpMinor === 0 && summary.bundleUsdCents === 0;
}

/**
 * The payment methods the payment step offers: those the plan accepts that this installation takes
 * now (GET /subscription availablePaymentMethods), in the plan's order. A method that cannot work
 * is never offered (docs/decisions/plans-and-orders.md, "Which methods are offered today").
 */
export function offeredMethods(plan: TRatePlan, subscription: Pick<TSubscription, 'availablePaymentMethods'>) {
  return plan.paymentMethods.filter((method) => subscription.availablePaymentMethods.includes(method));
}

/**
 * The method an order that costs nothing is placed with: the first offered one, else the plan's
 * first accepted method (pay as you go bills the month's credits with it later; nothing is charged now).
 */
export function methodForFreeOrder(plan: TRatePlan, offered: TPaymentMethod[]): TPaymentMethod | null {
  return offered[0] ?? plan.paymentMethods[0] ?? null;
}
