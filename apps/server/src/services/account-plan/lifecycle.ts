import type { Database } from '@connect/db';
import type { DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { problem, ProblemError } from '../../lib/errors.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { sameTerms } from '../../repositories/plan-terms.ts';
import { OrdersRepository } from './orders-repository.ts';
import { isInService, nextPeriodPlan, toSnapshot, transition, type PlanEvent, type PlanState } from './transitions.ts';

export type LifecycleOptions = {
  /** Pay as you go: how far the credits may go below zero until the month-end bill. */
  paygCreditLimit: number;
};

/**
 * Applies the transitions of transitions.ts to stored plans: the one writer of an account's plan
 * after its trial starts. Each call locks the account's plan row, asks `transition`, stores the
 * answer and, in the same transaction, sets the credit floor the plan allows (pay as you go in
 * service: the credit limit below zero; otherwise 0) and announces `plan.changed` (its
 * subscribers notify and email the customer). A refusal throws its problem and changes nothing.
 * It also puts in force what the account bought (issue 33 §3, repositories/plan-terms.ts): a
 * payment the paid order's terms, a period's end the renewal order's or, pay as you go, the tier's now.
 */
export class PlanLifecycle {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly options: LifecycleOptions,
  ) {}

  /**
   * Applies `event` to the account's plan inside `tx` (a caller's transaction, so an order and its
   * plan change commit together) or in a transaction of its own. Answers the new state.
   */
  async apply(
    accountId: string,
    event: PlanEvent,
    { tx, paymentMethod }: { tx?: Database; paymentMethod?: string } = {},
  ): Promise<PlanState> {
    const run = (db: Database) =>
      this.applyIn(new AccountPlansRepository(db, this.events), db, accountId, event, paymentMethod);
    if (tx) return run(tx);
    return this.db.transaction((inner) => run(inner as unknown as Database));
  }

  /** Like `apply`, but answers null instead of throwing when the event does not apply (the jobs' sweeps). */
  async applyIfDue(accountId: string, event: PlanEvent, options: { tx?: Database } = {}): Promise<PlanState | null> {
    try {
      return await this.apply(accountId, event, options);
    } catch (error) {
      if (error instanceof ProblemError) return null;
      throw error;
    }
  }

  /**
   * Applies one event to each of many accounts' plans inside `tx`, set-based (the month's close
   * for every billed account: 10,000 plans are a few statements, not a round trip each): one query
   * reads and locks the plans (in account order), `transition` answers each, one statement stores
   * the changed ones with `now` as their time, the credit floors that change are set, and one
   * insert announces every `plan.changed`. A refusal leaves its plan as it is (as applyIfDue);
   * what changes nothing is neither stored nor announced. Answers the plans changed.
   */
  async applyMany(
    tx: Database,
    changes: readonly { accountId: string; event: ManyEvent }[],
    now: Date,
  ): Promise<{ accountId: string; before: PlanState; after: PlanState; event: ManyEvent }[]> {
    const repo = new AccountPlansRepository(tx, this.events);
    const eventOf = new Map(changes.map((change) => [change.accountId, change.event]));
    const changed = (await repo.states([...eventOf.keys()], { lock: true })).flatMap(({ accountId, state: before }) => {
      const event = eventOf.get(accountId)!;
      const answer = transition(before, event);
      if (!answer.ok || isSameState(before, answer.state)) return [];
      return [{ accountId, before, after: answer.state, event }];
    });
    await repo.saveMany(
      changed.map(({ accountId, after }) => ({ accountId, state: after })),
      now,
    );
    for (const { accountId, before, after } of changed) {
      const floor = this.creditFloor(after);
      if (floor !== this.creditFloor(before)) await repo.ledger.setFloor(accountId, 'CREDIT', floor);
    }
    await this.events.emitMany(
      tx,
      'plan.changed',
      changed.map(({ accountId, before, after, event }) => changedPayload(accountId, before, after, event)),
    );
    return changed;
  }

  private async applyIn(
    repo: AccountPlansRepository,
    tx: Database,
    accountId: string,
    event: PlanEvent,
    paymentMethod: string | undefined,
  ): Promise<PlanState> {
    const before = await repo.state(accountId, { lock: true });
    if (!before) throw problem('ACCOUNT_NOT_FOUND');
    const answer = transition(before, await withTerms(repo, tx, before, event));
    if (!answer.ok) throw problem(answer.code);
    const after = answer.state;
    // Asked for what already holds (cancel twice, the same downgrade again): nothing to store or announce.
    if (isSameState(before, after)) return after;
    await repo.save(accountId, after, event.type === 'PLAN_PAID' ? paymentMethod : undefined);
    // What the payment changed, so a payment taken back (PAYMENT_REVERSED) puts the plan back.
    if (event.type === 'PLAN_PAID') await new OrdersRepository(tx).recordPlanBefore(event.orderId, toSnapshot(before));
    await repo.ledger.setFloor(accountId, 'CREDIT', this.creditFloor(after));
    await repo.announce('plan.changed', changedPayload(accountId, before, after, event));
    return after;
  }

  /** Pay as you go in service may spend down to its credit limit below zero; every other plan to 0. */
  private creditFloor(state: PlanState): bigint {
    return state.plan.type === 'PAY_AS_YOU_GO' && isInService(state) ? -BigInt(this.options.paygCreditLimit) : 0n;
  }
}

/**
 * The events applyMany takes: any but a payment (PLAN_PAID records the plan before it on its
 * order, one by one) and a period's end (its terms are read for each plan: withTerms).
 */
export type ManyEvent = Exclude<PlanEvent, { type: 'PLAN_PAID' | 'PERIOD_ENDED' }>;

/**
 * The event with the terms it puts in force when its caller gave none: a payment its order's (an
 * order placed before they were recorded: the tier's now); a period's end its renewal order's, else
 * (pay as you go rolling on) the tier's now of the next period's plan.
 */
async function withTerms(
  repo: AccountPlansRepository,
  tx: Database,
  state: PlanState,
  event: PlanEvent,
): Promise<PlanEvent> {
  if (event.type === 'PLAN_PAID' && event.terms === undefined) {
    const terms = (await new OrdersRepository(tx).terms(event.orderId)) ?? (await repo.tierTerms(event.plan.id));
    return { ...event, terms };
  }
  if (event.type === 'PERIOD_ENDED' && event.terms === undefined) {
    const ordered = event.renewalOrderId ? await new OrdersRepository(tx).terms(event.renewalOrderId) : null;
    return { ...event, terms: ordered ?? (await repo.tierTerms(nextPeriodPlan(state).id)) };
  }
  return event;
}

/**
 * What `plan.changed` says of a transition. A month's bill placed (BILL_PLACED) is announced as
 * the pay-as-you-go period's end (PERIOD_ENDED), as it always was: the bill is how that period ends.
 */
function changedPayload(
  accountId: string,
  before: PlanState,
  after: PlanState,
  event: PlanEvent,
): DomainEvents['plan.changed'] {
  return {
    accountId,
    cause: event.type === 'BILL_PLACED' ? 'PERIOD_ENDED' : event.type,
    planName: after.plan.name,
    planType: after.plan.type,
    previousPlanName: before.plan.name,
    status: after.status,
    previousStatus: before.status,
    statusReason: after.statusReason,
    periodEnd: after.periodEnd?.toISOString() ?? null,
    orderId: 'orderId' in event ? event.orderId : null,
  };
}

/** Whether a transition changed nothing a customer could see or a later transition could read. */
function isSameState(a: PlanState, b: PlanState): boolean {
  const time = (date: Date | null) => date?.getTime() ?? null;
  return (
    a.plan.id === b.plan.id &&
    a.status === b.status &&
    a.statusReason === b.statusReason &&
    a.statusBeforePending === b.statusBeforePending &&
    time(a.startedAt) === time(b.startedAt) &&
    time(a.periodEnd) === time(b.periodEnd) &&
    a.upfrontMonths === b.upfrontMonths &&
    time(a.trialEndsAt) === time(b.trialEndsAt) &&
    a.cancelAtPeriodEnd === b.cancelAtPeriodEnd &&
    (a.nextPlan?.id ?? null) === (b.nextPlan?.id ?? null) &&
    a.pendingOrderId === b.pendingOrderId &&
    sameTerms(a.terms, b.terms)
  );
}
