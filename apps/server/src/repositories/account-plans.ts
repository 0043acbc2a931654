import { asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { accountPlans, ratePlans, type Database } from '@connect/db';
import { PLAN_TERMS, type PlanStatus, type TAccountPlanType, type TPlanStatusReason } from '@connect/shared';
import type { DomainEvents, EventType } from '../events/catalogue.ts';
import type { EventBus } from '../events/port.ts';
import { LedgerRepository } from './ledger.ts';
import { termsOf, tierTermsSql, type PlanTerms } from './plan-terms.ts';

/** A plan as the transitions compare them, with its name for messages. */
export type PlanRow = { id: string; type: TAccountPlanType; tier: 'standard' | 'advance'; name: string };

/** The stored plan of an account, as services/account-plan/transitions.ts works on it. */
export type StoredPlanState = {
  plan: PlanRow;
  status: PlanStatus;
  statusReason: TPlanStatusReason | null;
  statusBeforePending: PlanStatus | null;
  startedAt: Date;
  periodEnd: Date | null;
  upfrontMonths: number | null;
  trialEndsAt: Date | null;
  cancelAtPeriodEnd: boolean;
  nextPlan: PlanRow | null;
  pendingOrderId: string | null;
  /** What the account bought (plan-terms.ts): in force until the plan changes or renews; null reads the tier. */
  terms: PlanTerms | null;
};

const next = alias(ratePlans, 'next_plan');
const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * The only code that reads and writes `account_plans`. New accounts start their trial here
 * (createPortalUser); every later change goes through services/account-plan/lifecycle.ts.
 */
export class AccountPlansRepository {
  /** The account ledger, over the same database or transaction (the pay-as-you-go floor). */
  readonly ledger: LedgerRepository;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {
    this.ledger = new LedgerRepository(db);
  }

  /** Runs `work` in one transaction with a repository over it. */
  transaction<T>(work: (repo: AccountPlansRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new AccountPlansRepository(tx as unknown as Database, this.events)));
  }

  /** Puts a new account on the trial plan (nothing when it has a plan already). */
  async startTrial(accountId: string, now = new Date()): Promise<void> {
    const trialEndsAt = new Date(now.getTime() + PLAN_TERMS.trialDays * 86_400_000);
    await this.db
      .insert(accountPlans)
      .values({
        accountId,
        ratePlanId: sql`(select ${ratePlans.id} from ${ratePlans} where ${ratePlans.code} = 'trial')`,
        status: 'ACTIVE',
        statusReason: 'TRIAL',
        startedAt: now,
        trialEndsAt,
        terms: sql`(select ${sql.raw(tierTermsSql())} from ${ratePlans} rp where rp.code = 'trial')`,
      })
      .onConflictDoNothing();
  }

  /** The account's plan, locked until the transaction ends when `lock` (call it inside one). */
  async state(accountId: string, { lock = false } = {}): Promise<StoredPlanState | null> {
    const [found] = await this.states([accountId], { lock });
    return found?.state ?? null;
  }

  /**
   * The plans of many accounts in one query (those that have one), in the order of their account
   * ids; locked until the transaction ends when `lock` (rows locked in that order, as every
   * caller locking many takes them: no two wait for each other in a cycle).
   */
  async states(
    accountIds: readonly string[],
    { lock = false } = {},
  ): Promise<{ accountId: string; state: StoredPlanState }[]> {
    if (accountIds.length === 0) return [];
    const query = this.db
      .select({
        row: accountPlans,
        plan: { id: ratePlans.id, type: ratePlans.type, tier: ratePlans.tier, name: ratePlans.name },
        next: { id: next.id, type: next.type, tier: next.tier, name: next.name },
      })
      .from(accountPlans)
      .innerJoin(ratePlans, eq(ratePlans.id, accountPlans.ratePlanId))
      .leftJoin(next, eq(next.id, accountPlans.nextRatePlanId))
      .where(
        accountIds.length === 1
          ? eq(accountPlans.accountId, accountIds[0]!)
          : sql`${accountPlans.accountId} in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb))`,
      )
      .orderBy(asc(accountPlans.accountId));
    const rows = lock ? await query.for('update', { of: accountPlans }) : await query;
    return rows.map((found) => ({ accountId: found.row.accountId, state: stateOf(found) }));
  }

  /** A plan of the catalogue (on sale or not), or null. */
  async plan(ratePlanId: string): Promise<PlanRow | null> {
    const [row] = await this.db
      .select({ id: ratePlans.id, type: ratePlans.type, tier: ratePlans.tier, name: ratePlans.name })
      .from(ratePlans)
      .where(eq(ratePlans.id, ratePlanId));
    return row ?? null;
  }

  /** A tier's terms now (what an order placed now, or a pay-as-you-go month starting now, gets), or null. */
  async tierTerms(ratePlanId: string): Promise<PlanTerms | null> {
    const [row] = await this.db.select().from(ratePlans).where(eq(ratePlans.id, ratePlanId));
    return row ? termsOf(row) : null;
  }

  /** Stores the state a transition answered. */
  async save(accountId: string, state: StoredPlanState, lastPaymentMethod?: string): Promise<void> {
    await this.db
      .update(accountPlans)
      .set({
        ratePlanId: state.plan.id,
        status: state.status,
        statusReason: state.statusReason,
        statusBeforePending: state.statusBeforePending,
        startedAt: state.startedAt,
        periodEnd: state.periodEnd,
        upfrontMonths: state.upfrontMonths,
        trialEndsAt: state.trialEndsAt,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd,
        nextRatePlanId: state.nextPlan?.id ?? null,
        pendingOrderId: state.pendingOrderId,
        terms: state.terms,
        ...(lastPaymentMethod ? { lastPaymentMethod: lastPaymentMethod as 'QNT' } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(accountPlans.accountId, accountId));
  }

  /**
   * Stores the states transitions answered for many accounts in one statement (the month's close
   * for every billed account: PlanLifecycle.applyMany), with `updatedAt` as their change's time.
   */
  async saveMany(changes: readonly { accountId: string; state: StoredPlanState }[], updatedAt: Date): Promise<void> {
    if (changes.length === 0) return;
    const rows = changes.map(({ accountId, state }) => ({
      accountId,
      ratePlanId: state.plan.id,
      status: state.status,
      statusReason: state.statusReason,
      statusBeforePending: state.statusBeforePending,
      startedAt: state.startedAt.toISOString(),
      periodEnd: state.periodEnd?.toISOString() ?? null,
      upfrontMonths: state.upfrontMonths,
      trialEndsAt: state.trialEndsAt?.toISOString() ?? null,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      nextRatePlanId: state.nextPlan?.id ?? null,
      pendingOrderId: state.pendingOrderId,
      terms: state.terms,
    }));
    await this.db.execute(sql`
      update ${accountPlans} ap set rate_plan_id = x."ratePlanId", status = x.status, status_reason = x."statusReason",
        status_before_pending = x."statusBeforePending", started_at = x."startedAt", period_end = x."periodEnd",
        upfront_months = x."upfrontMonths", trial_ends_at = x."trialEndsAt", cancel_at_period_end = x."cancelAtPeriodEnd",
        next_rate_plan_id = x."nextRatePlanId", pending_order_id = x."pendingOrderId", terms = x.terms,
        updated_at = ${updatedAt.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x("accountId" uuid, "ratePlanId" uuid, status text,
        "statusReason" text, "statusBeforePending" text, "startedAt" timestamptz, "periodEnd" timestamptz,
        "upfrontMonths" int, "trialEndsAt" timestamptz, "cancelAtPeriodEnd" boolean, "nextRatePlanId" uuid,
        "pendingOrderId" uuid, terms jsonb)
      where ap.account_id = x."accountId"`);
  }

  async announce<K extends EventType>(type: K, payload: DomainEvents[K]): Promise<void> {
    await this.events.emit(this.db, type, payload);
  }
}

type Found = {
  row: typeof accountPlans.$inferSelect;
  plan: PlanRow;
  next: { id: string | null; type: unknown; tier: unknown; name: string | null } | null;
};

/** A stored plan row with its plans, as the transitions work on it. */
function stateOf({ row, plan, next: nextPlan }: Found): StoredPlanState {
  return {
    plan,
    status: row.status,
    statusReason: row.statusReason,
    statusBeforePending: row.statusBeforePending,
    startedAt: new Date(row.startedAt),
    periodEnd: asDate(row.periodEnd),
    upfrontMonths: row.upfrontMonths,
    trialEndsAt: asDate(row.trialEndsAt),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    nextPlan: nextPlan?.id ? (nextPlan as PlanRow) : null,
    pendingOrderId: row.pendingOrderId,
    terms: row.terms ?? null,
  };
}
