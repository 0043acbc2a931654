import {
  PLAN_GROUP_NAMES,
  PLAN_TERMS,
  PLAN_TYPES,
  type TCreditBundlesResponse,
  type TFetchPlansResponse,
  type TOrder,
  type TPaymentMethod,
  type TPlanInfo,
  type TPlansResponse,
  type TQntHolding,
  type TRatePlan,
  type TSubscription,
} from '@connect/shared';
import { notFound, problem } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { AccountPlansRepository, StoredPlanState } from '../../repositories/account-plans.ts';
import type { PlanLifecycle } from './lifecycle.ts';
import type { AccountPlanRepository, RatePlanRow } from './repository.ts';
import { isInService, type PlanEvent } from './transitions.ts';

/** What the subscription needs of the orders: the open order as the customer sees it, and the methods taken now. */
export type SubscriptionOrders = {
  /** The account's order `orderId` (null when it is not the account's). */
  order(accountId: string, orderId: string): Promise<TOrder | null>;
  /** The account's orders awaiting payment (credit top-ups included). */
  openOrders(accountId: string): Promise<TOrder[]>;
  availablePaymentMethods(): TPaymentMethod[];
  /** QNT held for the customer and their deposit address, where QNT is taken. */
  qntHolding(accountId: string): Promise<TQntHolding | undefined>;
};

type Caller = Pick<PortalUser, 'accountId'>;

/** The rules of the account-plan service; plans, orders and subscriptions arrive with their issues. */
export class AccountPlanService {
  constructor(
    private readonly repo: AccountPlanRepository,
    private readonly accountPlans: AccountPlansRepository,
    private readonly lifecycle: PlanLifecycle,
    private readonly orders: SubscriptionOrders,
  ) {}

  /**
   * The plan info of the top bar and dashboard (spec §3 Plan info) for the caller's own account.
   * There is no account parameter: a user can only ever read the plan of the account they belong to.
   */
  async userPlan(caller: Caller): Promise<TPlanInfo> {
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

  /**
   * GET /subscription: the caller's account's plan — status and why, dates, allowances against
   * usage, credits (low at PLAN_TERMS.lowCreditsThreshold or below), the open order, and the
   * payment methods taken now.
   */
  async subscription(caller: Caller): Promise<TSubscription> {
    const state = await this.accountPlans.state(caller.accountId);
    if (!state) throw notFound('ACCOUNT_NOT_FOUND');
    return this.describe(caller.accountId, state);
  }

  /** POST /subscription/cancel: the plan ends at the end of its period. */
  cancel(caller: Caller): Promise<TSubscription> {
    return this.change(caller, { type: 'CANCEL_REQUESTED' });
  }

  /** POST /subscription/resume: a cancellation withdrawn before the period ends. */
  resume(caller: Caller): Promise<TSubscription> {
    return this.change(caller, { type: 'CANCEL_WITHDRAWN' });
  }

  /** POST /subscription/downgrade: a lower plan on sale for the next period, or null to keep the current one. */
  async downgrade(caller: Caller, ratePlanId: string | null): Promise<TSubscription> {
    if (ratePlanId === null) return this.change(caller, { type: 'DOWNGRADE_CHOSEN', plan: null });
    const plan = await this.repo.activePlan(ratePlanId);
    if (!plan) throw notFound('RATE_PLAN_NOT_FOUND');
    const { id, type, tier, name } = plan;
    return this.change(caller, { type: 'DOWNGRADE_CHOSEN', plan: { id, type, tier, name } });
  }

  /** Applies a customer's own change to their own account (refusals are the transitions' problems). */
  private async change(caller: Caller, event: PlanEvent): Promise<TSubscription> {
    const state = await this.lifecycle.apply(caller.accountId, event);
    return this.describe(caller.accountId, state);
  }

  private async describe(accountId: string, state: StoredPlanState): Promise<TSubscription> {
    const [plan, usage, credits, pendingOrder, openOrders] = await Promise.all([
      this.repo.ratePlan(state.plan.id),
      this.repo.usage(accountId),
      this.accountPlans.ledger.balance(accountId, 'CREDIT'),
      state.pendingOrderId ? this.orders.order(accountId, state.pendingOrderId) : Promise.resolve(null),
      this.orders.openOrders(accountId),
    ]);
    // The plan row is referenced by account_plans: it cannot vanish while the account has it.
    if (!plan) throw problem('RATE_PLAN_NOT_FOUND');
    // What the account bought (issue 33 §3), not the tier as staff may have edited it since.
    const bought = state.terms ?? plan;
    const available = Number(credits.available);
    return {
      plan: {
        id: plan.id,
        code: plan.code,
        name: plan.name,
        type: plan.type,
        tier: plan.tier,
        billing: plan.type === 'TRIAL' ? 'TRIAL' : billingOf(plan.type),
        feeGbpMinor: plan.feeGbpMinor,
        creditPriceUsdCents: bought.creditPriceUsdCents,
      },
      status: state.status,
      statusReason: state.statusReason,
      inService: isInService(state),
      startedAt: state.startedAt.toISOString(),
      periodEnd: state.periodEnd?.toISOString() ?? null,
      trialEndsAt: state.trialEndsAt?.toISOString() ?? null,
      upfrontMonths: state.upfrontMonths,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      nextPlan: state.nextPlan ? { id: state.nextPlan.id, name: state.nextPlan.name } : null,
      allowances: allowancesOf(bought),
      usage,
      credits: { available, balance: Number(credits.balance), floor: Number(credits.floor) },
      lowCredits: available <= PLAN_TERMS.lowCreditsThreshold,
      pendingOrder,
      openOrders,
      availablePaymentMethods: this.orders.availablePaymentMethods(),
      qnt: await this.orders.qntHolding(accountId),
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

  /**
   * GET /rate-plan/{id}/credit-bundles: the bundles a plan on sale sells (none for pay as you go),
   * or the caller's own plan's even when it is retired (issue 33 §3: its accounts keep buying them).
   */
  async creditBundles(caller: Caller, ratePlanId: string): Promise<TCreditBundlesResponse> {
    let plan = await this.repo.activePlan(ratePlanId);
    if (!plan && (await this.accountPlans.state(caller.accountId))?.plan.id === ratePlanId) {
      plan = await this.repo.ratePlan(ratePlanId);
    }
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
    allowances: allowancesOf(plan),
    hasCreditBundles,
  };
}

function allowancesOf(plan: TRatePlan['allowances']): TRatePlan['allowances'] {
  return {
    applications: plan.applications,
    tokens: plan.tokens,
    bridges: plan.bridges,
    blockchains: plan.blockchains,
    mainnets: plan.mainnets,
    testnets: plan.testnets,
    rateLimit: plan.rateLimit,
  };
}
