import {
  PLAN_GROUP_NAMES,
  PLAN_TYPES,
  type TCreditBundlesResponse,
  type TFetchPlansResponse,
  type TPlanInfo,
  type TPlansResponse,
  type TRatePlan,
} from '@connect/shared';
import { notFound } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { AccountPlansRepository } from '../../repositories/account-plans.ts';
import type { AccountPlanRepository, RatePlanRow } from './repository.ts';

/** The rules of the account-plan service; plans, orders and subscriptions arrive with their issues. */
export class AccountPlanService {
  constructor(
    private readonly repo: AccountPlanRepository,
    private readonly accountPlans: AccountPlansRepository,
  ) {}

  /**
   * The plan info of the top bar and dashboard (spec §3 Plan info) for the caller's own account.
   * There is no account parameter: a user can only ever read the plan of the account they belong to.
   */
  async userPlan(caller: Pick<PortalUser, 'accountId'>): Promise<TPlanInfo> {
    const [plan, credits] = await Promise.all([
      this.accountPlans.state(caller.accountId),
      this.accountPlans.ledger.balance(caller.accountId, 'CREDIT'),
    ]);
    // The account can vanish between authentication and here (an administrator removed it).
    if (!plan) throw notFound('ACCOUNT_NOT_FOUND');
    const renewsAt = plan.plan.type === 'TRIAL' ? plan.trialEndsAt : plan.periodEnd;
    return {
      name: plan.plan.name,
      status: plan.status,
      credits: Number(credits.available),
      renewsAt: renewsAt ? renewsAt.toISOString() : null,
    };
  }

  /** GET /plans: every plan on sale, in the catalogue's order. */
  async plans(): Promise<TPlansResponse> {
    const { plans, withBundles } = await this.repo.activePlans();
    return { plans: plans.map((plan) => toRatePlan(plan, withBundles.has(plan.id))) };
  }

  /** GET /v2/fetch-plans: the plans table — pay as you go against the annual subscription, each with its tiers. */
  async fetchPlans(): Promise<TFetchPlansResponse> {
    const { plans } = await this.plans();
    const groups = PLAN_TYPES.map((type) => {
      const tiers = plans.filter((plan) => plan.type === type);
      return { type, name: PLAN_GROUP_NAMES[type], billing: billingOf(type), tiers };
    });
    return { groups: groups.filter((group) => group.tiers.length > 0) };
  }

  /** GET /rate-plan/{id}/credit-bundles: the bundles a plan on sale sells (none for pay as you go). */
  async creditBundles(ratePlanId: string): Promise<TCreditBundlesResponse> {
    const plan = await this.repo.activePlan(ratePlanId);
    if (!plan) throw notFound('RATE_PLAN_NOT_FOUND');
    const bundles = await this.repo.creditBundles(plan.id);
    return {
      ratePlanId: plan.id,
      bundles: bundles.map((bundle) => ({
        id: bundle.id,
        credits: bundle.credits,
        priceUsdCents: bundle.priceUsdCents,
        unitPriceUsdCents: Math.round((bundle.priceUsdCents / bundle.credits) * 100) / 100,
      })),
    };
  }
}

const billingOf = (type: TRatePlan['type']): TRatePlan['billing'] => (type === 'SUBSCRIPTION' ? 'ANNUAL' : 'MONTHLY');

function toRatePlan(plan: RatePlanRow, hasCreditBundles: boolean): TRatePlan {
  // The trial plan is never on sale (is_active false), so a plan on sale has a type of the table.
  if (plan.type === 'TRIAL') throw new Error('the trial plan is not on sale');
  return {
    id: plan.id,
    code: plan.code,
    type: plan.type,
    tier: plan.tier,
    name: plan.name,
    productId: plan.productId,
    shortDescription: plan.shortDescription,
    fullDescription: plan.fullDescription,
    order: plan.sortOrder,
    billing: billingOf(plan.type),
    feeGbpMinor: plan.feeGbpMinor,
    qntPrice: plan.qntPrice === null ? null : plan.qntPrice.toString(),
    creditPriceUsdCents: plan.creditPriceUsdCents,
    upfrontMonths: plan.upfrontMonths,
    paymentMethods: plan.paymentMethods,
    allowances: {
      applications: plan.applications,
      tokens: plan.tokens,
      bridges: plan.bridges,
      blockchains: plan.blockchains,
      mainnets: plan.mainnets,
      testnets: plan.testnets,
      rateLimit: plan.rateLimit,
    },
    hasCreditBundles,
  };
}
