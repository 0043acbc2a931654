import type { Database } from '@connect/db';
import type { EventBus } from '../../events/port.ts';
import { problem, ProblemError } from '../../lib/errors.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import { OrdersRepository } from './orders-repository.ts';
import { isInService, toSnapshot, transition, type PlanEvent, type PlanState } from './transitions.ts';

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

  private async applyIn(
    repo: AccountPlansRepository,
    tx: Database,
    accountId: string,
    event: PlanEvent,
    paymentMethod: string | undefined,
  ): Promise<PlanState> {
    const before = await repo.state(accountId, { lock: true });
    if (!before) throw problem('ACCOUNT_NOT_FOUND');
    const answer = transition(before, event);
    if (!answer.ok) throw problem(answer.code);
    const after = answer.state;
    // Asked for what already holds (cancel twice, the same downgrade again): nothing to store or announce.
    if (isSameState(before, after)) return after;
    await repo.save(accountId, after, event.type === 'PLAN_PAID' ? paymentMethod : undefined);
    // What the payment changed, so a payment taken back (PAYMENT_REVERSED) puts the plan back.
    if (event.type === 'PLAN_PAID') await new OrdersRepository(tx).recordPlanBefore(event.orderId, toSnapshot(before));
    await repo.ledger.setFloor(accountId, 'CREDIT', this.creditFloor(after));
    await repo.announce('plan.changed', {
      accountId,
      cause: event.type,
      planName: after.plan.name,
      planType: after.plan.type,
      previousPlanName: before.plan.name,
      status: after.status,
      previousStatus: before.status,
      statusReason: after.statusReason,
      periodEnd: after.periodEnd?.toISOString() ?? null,
      orderId: 'orderId' in event ? event.orderId : null,
    });
    return after;
  }

  /** Pay as you go in service may spend down to its credit limit below zero; every other plan to 0. */
  private creditFloor(state: PlanState): bigint {
    return state.plan.type === 'PAY_AS_YOU_GO' && isInService(state) ? -BigInt(this.options.paygCreditLimit) : 0n;
  }
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
    a.pendingOrderId === b.pendingOrderId
  );
}
