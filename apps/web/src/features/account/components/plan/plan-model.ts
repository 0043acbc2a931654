import type { TAllowanceUsage, TPaymentMethod, TPlanAllowances, TRatePlan, TSubscription } from '@connect/shared';

/*
 * What the plan section decides from GET /subscription, apart from how it looks: which actions
 * are offered, and where usage is above an allowance.
 */

/** The allowances a bar is shown for, in the order of the plans table. */
export const USAGE_ITEMS = ['applications', 'tokens', 'bridges', 'blockchains', 'mainnets', 'testnets'] as const;
export type UsageItem = (typeof USAGE_ITEMS)[number];

/** Only the blockchains allowance uses 0 for "all" (spec §9); 0 elsewhere means none. */
export const isUnlimited = (item: UsageItem, allowance: number) => item === 'blockchains' && allowance === 0;

/** The allowances the usage is above (an account keeps what it has, but cannot add more). */
export function overAllowances(usage: TAllowanceUsage, allowances: TPlanAllowances): UsageItem[] {
  return USAGE_ITEMS.filter((item) => !isUnlimited(item, allowances[item]) && usage[item] > allowances[item]);
}

/**
 * The key under myAccount.plan.reason for the status, its reason and the plan's type, the most
 * specific there is (pay as you go's RENEWAL_DUE is its month's bill, not a renewal).
 */
export function reasonKey(
  subscription: Pick<TSubscription, 'status' | 'statusReason'> & { plan: Pick<TSubscription['plan'], 'type'> },
  known: (key: string) => boolean,
) {
  if (!subscription.statusReason) return subscription.status;
  const specific = `${subscription.status}_${subscription.statusReason}`;
  const forPlanType = `${specific}_${subscription.plan.type}`;
  if (known(forPlanType)) return forPlanType;
  return known(specific) ? specific : subscription.status;
}

/** A paid plan that renews may be cancelled (or its downgrade chosen) while it is active. */
export function canChangeAtRenewal(subscription: TSubscription): boolean {
  return (
    subscription.plan.type !== 'TRIAL' &&
    subscription.status === 'ACTIVE' &&
    subscription.periodEnd !== null &&
    subscription.statusReason !== 'RENEWAL_DUE'
  );
}

/** The catalogue's entry of the current plan (the trial is never on sale: undefined). */
export function currentRatePlan(subscription: TSubscription, catalogue: TRatePlan[] | undefined) {
  return catalogue?.find((plan) => plan.id === subscription.plan.id);
}

/** The methods a credits order can use: those the plan accepts that this installation takes now. */
export function creditPaymentMethods(subscription: TSubscription, ratePlan: TRatePlan | undefined): TPaymentMethod[] {
  if (!ratePlan) return [];
  return subscription.availablePaymentMethods.filter((method) => ratePlan.paymentMethods.includes(method));
}
