import { planRank, type TAccountPlanType, type TPlanTier, type TSubscription } from '@connect/shared';

export { planRank };

/*
 * Which plans the upgrade step offers (docs/decisions/plans-and-orders.md, "Upgrades, downgrades and cancelling"):
 * an upgrade is a higher plan — trial < pay as you go standard < advance < annual standard <
 * advance (`planRank`, shared with the server's canOrder, which refuses a lower plan with
 * PLAN_NOT_AN_UPGRADE); this only decides what the table offers.
 */

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
