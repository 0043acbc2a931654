import { and, asc, countDistinct, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  accountFeatures,
  accountNetworks,
  accountPlans,
  creditBundles,
  networks,
  orders,
  ratePlans,
  type Database,
} from '@connect/db';
import type { FeatureName, TAllowanceUsage, TPaymentMethod } from '@connect/shared';

export type RatePlanRow = typeof ratePlans.$inferSelect;
export type CreditBundleRow = typeof creditBundles.$inferSelect;

/** A plan a sweep of periods.ts may change, with what its step needs. */
export type PlanCandidate = { accountId: string; due: Date };

/** The features whose `used` counts an allowance (spec §5). */
const COUNTED: Record<'applications' | 'tokens' | 'bridges', FeatureName> = {
  applications: 'applications:create',
  tokens: 'tokens:create',
  bridges: 'bridges:create',
};

/** How many candidates one sweep takes; the rest wait for the next run (each step is idempotent). */
export const SWEEP_BATCH = 500;

/** The only code of the account-plan service that touches its tables. */
export class AccountPlanRepository {
  constructor(private readonly db: Database) {}

  /** The plans on sale, in the catalogue's order, with the ids of those that sell credit bundles. */
  async activePlans(): Promise<{ plans: RatePlanRow[]; withBundles: Set<string> }> {
    const [plans, bundled] = await Promise.all([
      this.db.select().from(ratePlans).where(eq(ratePlans.isActive, true)).orderBy(asc(ratePlans.sortOrder)),
      this.db.selectDistinct({ ratePlanId: creditBundles.ratePlanId }).from(creditBundles),
    ]);
    return { plans, withBundles: new Set(bundled.map((row) => row.ratePlanId)) };
  }

  /** A plan on sale, or null. */
  async activePlan(id: string): Promise<RatePlanRow | null> {
    const row = await this.ratePlan(id);
    return row?.isActive ? row : null;
  }

  /** A plan of the catalogue, on sale or not (the trial, a withdrawn plan an account still has). */
  async ratePlan(id: string): Promise<RatePlanRow | null> {
    const [row] = await this.db.select().from(ratePlans).where(eq(ratePlans.id, id));
    return row ?? null;
  }

  /** A plan's credit bundles, smallest first. */
  creditBundles(ratePlanId: string): Promise<CreditBundleRow[]> {
    return this.db
      .select()
      .from(creditBundles)
      .where(eq(creditBundles.ratePlanId, ratePlanId))
      .orderBy(asc(creditBundles.sortOrder), asc(creditBundles.credits));
  }

  /**
   * What the account uses of each allowance: the counted features' `used`, and its activated
   * catalogue networks (blockchains: distinct technologies; mainnets and testnets by type).
   */
  async usage(accountId: string): Promise<TAllowanceUsage> {
    const [features, [nets]] = await Promise.all([
      this.db
        .select({ feature: accountFeatures.feature, used: accountFeatures.used })
        .from(accountFeatures)
        .where(and(eq(accountFeatures.accountId, accountId), inArray(accountFeatures.feature, Object.values(COUNTED)))),
      this.db
        .select({
          blockchains: countDistinct(networks.technology),
          mainnets: sql<number>`count(*) filter (where ${networks.networkType} = 'mainnet')`.mapWith(Number),
          testnets: sql<number>`count(*) filter (where ${networks.networkType} = 'testnet')`.mapWith(Number),
        })
        .from(accountNetworks)
        .innerJoin(networks, eq(networks.id, accountNetworks.networkId))
        .where(eq(accountNetworks.accountId, accountId)),
    ]);
    const used = (feature: FeatureName) => features.find((row) => row.feature === feature)?.used ?? 0;
    return {
      applications: used(COUNTED.applications),
      tokens: used(COUNTED.tokens),
      bridges: used(COUNTED.bridges),
      blockchains: nets?.blockchains ?? 0,
      mainnets: nets?.mainnets ?? 0,
      testnets: nets?.testnets ?? 0,
    };
  }

  /** Trials in service that end after `now` and by `until` (the reminders), soonest first. */
  trialsEndingBy(now: Date, until: Date): Promise<PlanCandidate[]> {
    return this.trials(and(gt(accountPlans.trialEndsAt, now), lte(accountPlans.trialEndsAt, until)));
  }

  /** Trials in service whose end has come. */
  trialsEnded(now: Date): Promise<PlanCandidate[]> {
    return this.trials(lte(accountPlans.trialEndsAt, now));
  }

  private async trials(when: ReturnType<typeof and>): Promise<PlanCandidate[]> {
    const rows = await this.db
      .select({ accountId: accountPlans.accountId, due: accountPlans.trialEndsAt })
      .from(accountPlans)
      .innerJoin(ratePlans, eq(ratePlans.id, accountPlans.ratePlanId))
      .where(
        and(
          eq(ratePlans.type, 'TRIAL'),
          or(
            eq(accountPlans.status, 'ACTIVE'),
            and(eq(accountPlans.status, 'PENDING'), eq(accountPlans.statusBeforePending, 'ACTIVE')),
          ),
          when,
        ),
      )
      .orderBy(asc(accountPlans.trialEndsAt))
      .limit(SWEEP_BATCH);
    return rows.map((row) => ({ accountId: row.accountId, due: new Date(row.due!) }));
  }

  /** Active paid plans whose period has ended and whose renewal is not yet due. */
  async periodsEnded(now: Date): Promise<PlanCandidate[]> {
    const rows = await this.db
      .select({ accountId: accountPlans.accountId, due: accountPlans.periodEnd })
      .from(accountPlans)
      .where(
        and(
          eq(accountPlans.status, 'ACTIVE'),
          lte(accountPlans.periodEnd, now),
          or(isNull(accountPlans.statusReason), ne(accountPlans.statusReason, 'RENEWAL_DUE')),
        ),
      )
      .orderBy(asc(accountPlans.periodEnd))
      .limit(SWEEP_BATCH);
    return rows.map((row) => ({ accountId: row.accountId, due: new Date(row.due!) }));
  }

  /**
   * Plans whose renewal order (or pay-as-you-go month's bill) is still unpaid on its due date:
   * `due` is that date (the end of the grace days).
   */
  async renewalsOverdue(now: Date): Promise<PlanCandidate[]> {
    const rows = await this.db
      .select({ accountId: accountPlans.accountId, due: orders.dueAt })
      .from(accountPlans)
      .innerJoin(orders, eq(orders.id, accountPlans.pendingOrderId))
      .where(
        and(eq(accountPlans.status, 'ACTIVE'), eq(accountPlans.statusReason, 'RENEWAL_DUE'), lte(orders.dueAt, now)),
      )
      .orderBy(asc(orders.dueAt))
      .limit(SWEEP_BATCH);
    return rows.map((row) => ({ accountId: row.accountId, due: new Date(row.due) }));
  }

  /** How the account paid its last order (a renewal is offered the same way), or null. */
  async lastPaymentMethod(accountId: string): Promise<TPaymentMethod | null> {
    const [row] = await this.db
      .select({ method: accountPlans.lastPaymentMethod })
      .from(accountPlans)
      .where(eq(accountPlans.accountId, accountId));
    return row?.method ?? null;
  }

  /**
   * How each account pays its month's bill (the month's close, for every billed account in one
   * query): the way it paid its last order when `available` has it, else the first of `available`.
   */
  async billMethods(
    accountIds: readonly string[],
    available: readonly TPaymentMethod[],
  ): Promise<Map<string, TPaymentMethod>> {
    const rows = await this.db
      .select({ accountId: accountPlans.accountId, method: accountPlans.lastPaymentMethod })
      .from(accountPlans)
      .where(
        sql`${accountPlans.accountId} in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb))`,
      );
    const first = available[0] ?? 'BANK_TRANSFER';
    return new Map(
      rows.map((row) => [row.accountId, row.method && available.includes(row.method) ? row.method : first]),
    );
  }
}
