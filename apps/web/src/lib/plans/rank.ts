import type { TAccountPlanType, TPlanTier, TSubscription } from '@connect/shared';

/*
 * Which plans the upgrade step offers (docs/decisions.md, "Upgrades, downgrades and cancelling"):
 * an upgrade is a higher plan — trial < pay as you go standard < advance < annual standard <
 * advance. The server's canOrder (services/account-plan/transitions.ts) keeps the same order and
 * refuses a lower plan with PLAN_NOT_AN_UPGRADE; this copy only decides what the table offers.
 */

const RANK: Record<TAccountPlanType, number> = { TRIAL: 0, PAY_AS_YOU_GO: 1, SUBSCRIPTION: 3 };

export function planRank(plan: { type: TAccountPlanType; tier: TPlanTier }): number {
  return RANK[plan.type] + (plan.type !== 'TRIAL' && plan.tier === 'advance' ? 1 : 0);
}

/** CURRENT: the account's plan (not offered again); LOWER: below it (chosen on the plan page instead). */
export type PlanOffer = 'UPGRADE' | 'CURRENT' | 'LOWER';

/** What the plans table offers for `plan`: an inactive account may order any plan, its own included. */
export function offerOf(
  subscription: Pick<TSubscription, 'status' | 'plan'>,
  plan: { id: string; type: TAccountPlanType; tier: TPlanTier },
): PlanOffer {
  if (subscription.status === 'INACTIVE') return 'UPGRADE';
  if (plan.id === subscription.plan.id) return 'CURRENT';
  return planRank(plan) < planRank(subscription.plan) ? 'LOWER' : 'UPGRADE';
}
