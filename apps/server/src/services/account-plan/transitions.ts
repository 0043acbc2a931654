import { planRank, type PlanStatus, type ProblemCode, type TPlanStatusReason } from '@connect/shared';
import type { PlanRow, StoredPlanState } from '../../repositories/account-plans.ts';
import type { PlanTerms } from '../../repositories/plan-terms.ts';

type PlanRef = PlanRow;
type PlanState = StoredPlanState;

/*
 * Every change of an account's plan, in one place (docs/decisions/plans-and-orders.md, "The account plan's transitions").
 * `transition(state, event)` is pure: it answers the next state or the refusal's problem code.
 * lifecycle.ts loads the state under a row lock, applies the answer and does the side effects
 * (the ledger's floor, the allowances in service, the emails) in the same transaction.
 *
 *   trial ──order──▶ PENDING ──paid──▶ ACTIVE ──period ends──▶ ACTIVE (pay as you go: next month)
 *     │                 │                │                     ACTIVE RENEWAL_DUE ──paid──▶ ACTIVE
 *     │                 └─cancelled─▶ (back)                    └─grace over──▶ INACTIVE RENEWAL_FAILED
 *     └─trial ends──▶ INACTIVE TRIAL_ENDED     ACTIVE, cancelling ──period ends──▶ INACTIVE CANCELLED
 *   Any INACTIVE plan can be ordered again; staff can disable (DISABLED STAFF) and enable.
 */

/** A plan (an upgrade goes up `rankOf`) and the state the transitions work on. */
export type { PlanRow as PlanRef, StoredPlanState as PlanState };

export type PlanEvent =
  /** A plan order waits for its payment. */
  | { type: 'ORDER_PLACED'; orderId: string; plan: PlanRef }
  /** The waiting order was cancelled (by the customer or as expired). */
  | { type: 'ORDER_CANCELLED'; orderId: string }
  /** A plan order (or a renewal order) was paid: the plan is active for the period it paid. */
  | {
      type: 'PLAN_PAID';
      orderId: string;
      plan: PlanRef;
      periodStart: Date;
      periodEnd: Date;
      upfrontMonths: number | null;
      /** The order's terms, put in force (PlanLifecycle fills them in; absent here: null, read the tier). */
      terms?: PlanTerms | null;
    }
  /**
   * The paid period ended (`now` ≥ periodEnd). A subscription that renews needs a renewal order
   * (`renewalOrderId`, placed by the caller for the plan `next` answers); pay as you go rolls on
   * (the periods job gives no order: the UTC month's close bills its use with a USAGE order,
   * payment/invoices/close.ts, and the plan waits for it: BILL_PLACED).
   */
  | {
      type: 'PERIOD_ENDED';
      now: Date;
      renewalOrderId: string | null;
      /**
       * The next period's terms (issue 33 §3: a renewal takes the tier as it is now): the renewal
       * order's, or pay as you go's tier's now. PlanLifecycle fills them in; absent here: null.
       */
      terms?: PlanTerms | null;
    }
  /** The renewal order (or a month's bill) was not paid by `dueAt`, its due date (the grace days). */
  | { type: 'RENEWAL_FAILED'; now: Date; dueAt: Date }
  /**
   * The UTC month's close placed a pay-as-you-go account's bill (a USAGE order, payment/invoices/
   * close.ts): a plan in good standing waits for it (RENEWAL_DUE, as a renewal does: the plans'
   * sweep fails it when unpaid on its due date, BILL_PAID clears it). A plan already waiting for
   * something (an older bill) keeps that one: paying it hands the wait on (BILL_PAID's next bill).
   * Applied to every billed account at once (PlanLifecycle.applyMany); announced as PERIOD_ENDED.
   */
  | { type: 'BILL_PLACED'; orderId: string }
  /** A pay-as-you-go month's bill was paid: the plan is in good standing again. */
  /** A month's bill paid; `nextBillOrderId` is a later one still unpaid, which the plan waits for next. */
  | { type: 'BILL_PAID'; orderId: string; nextBillOrderId: string | null }
  | { type: 'TRIAL_ENDED'; now: Date }
  | { type: 'TRIAL_EXTENDED'; until: Date }
  | { type: 'CANCEL_REQUESTED' }
  | { type: 'CANCEL_WITHDRAWN' }
  /** The plan for the next period (a lower one), or null to keep the current plan. */
  | { type: 'DOWNGRADE_CHOSEN'; plan: PlanRef | null }
  | { type: 'DISABLED_BY_STAFF' }
  | { type: 'ENABLED_BY_STAFF' }
  /**
   * The payment of a paid order was undone (a chain took back the QNT that paid it, issue 27 §4):
   * the plan waits for the order again as it did before it was paid. `before`: the plan just
   * before the order's PLAN_PAID (recorded on the order, `orders.plan_before`); null for a bill
   * (BILL_PAID changes no plan) or an order paid before it was recorded.
   */
  | { type: 'PAYMENT_REVERSED'; orderId: string; kind: 'PLAN' | 'RENEWAL' | 'USAGE'; before: PlanState | null };

export type Transition = { ok: true; state: PlanState } | { ok: false; code: ProblemCode };

/** Trial < pay as you go standard < advance < annual standard < advance (shared with the SPA). */
export const rankOf = (plan: PlanRef): number => planRank(plan);

/** Whether the allowances are in service: ACTIVE, or PENDING with an active plan behind the order. */
export function isInService(state: Pick<PlanState, 'status' | 'statusBeforePending'>): boolean {
  return state.status === 'ACTIVE' || (state.status === 'PENDING' && state.statusBeforePending === 'ACTIVE');
}

/** Whether the account may order `plan` now, or the problem that says why not. */
export function canOrder(state: PlanState, plan: PlanRef): ProblemCode | null {
  if (state.status === 'PENDING') return 'ORDER_PENDING';
  if (state.status === 'DISABLED') return 'PLAN_INACTIVE';
  if (state.status !== 'ACTIVE') return null; // INACTIVE: any plan, the same one included
  // The renewal order is open: it is paid (or lapses after the grace days) before another order,
  // so the renewal is never lost behind an upgrade that is then cancelled.
  if (state.statusReason === 'RENEWAL_DUE') return 'ORDER_PENDING';
  if (plan.id === state.plan.id) return 'PLAN_ALREADY_CURRENT';
  if (rankOf(plan) < rankOf(state.plan)) return 'PLAN_NOT_AN_UPGRADE';
  return null;
}

/** The plan the next period is for: the chosen downgrade, else the current plan. */
export function nextPeriodPlan(state: PlanState): PlanRef {
  return state.nextPlan ?? state.plan;
}

/** The date `months` after `from`, on the same day of the month where it exists (else the last day). */
export function addMonths(from: Date, months: number): Date {
  const result = new Date(from);
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const last = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, last));
  return result;
}

/** The first of `periodEnd` + 1, + 2, … months that is after `now`. */
function nextMonthEnd(periodEnd: Date, now: Date): Date {
  let months = 1;
  while (addMonths(periodEnd, months) <= now) months++;
  return addMonths(periodEnd, months);
}

export const addDays = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000);

/** The length of a plan's period: a month for pay as you go, a year (or the upfront months) for a subscription. */
export function periodMonths(plan: PlanRef, upfrontMonths: number | null): number {
  if (plan.type === 'PAY_AS_YOU_GO') return upfrontMonths ?? 1;
  return upfrontMonths ?? 12;
}

const refuse = (code: ProblemCode): Transition => ({ ok: false, code });
const to = (state: PlanState, changes: Partial<PlanState>): Transition => ({
  ok: true,
  state: { ...state, ...changes },
});

export function transition(state: PlanState, event: PlanEvent): Transition {
  switch (event.type) {
    case 'ORDER_PLACED': {
      const refusal = canOrder(state, event.plan);
      if (refusal) return refuse(refusal);
      return to(state, {
        status: 'PENDING',
        statusReason: 'AWAITING_PAYMENT',
        statusBeforePending: state.status,
        pendingOrderId: event.orderId,
      });
    }
    case 'ORDER_CANCELLED': {
      if (state.pendingOrderId !== event.orderId) return refuse('PLAN_CHANGE_NOT_APPLICABLE');
      if (state.status !== 'PENDING') return to(state, { pendingOrderId: null }); // a renewal order: the grace decides
      const status = state.statusBeforePending ?? 'ACTIVE';
      return to(state, {
        status,
        statusReason: reasonWhenBack(state, status),
        statusBeforePending: null,
        pendingOrderId: null,
      });
    }
    case 'PLAN_PAID':
      if (state.status === 'DISABLED') return refuse('PLAN_INACTIVE');
      return to(state, {
        plan: event.plan,
        status: 'ACTIVE',
        statusReason: null,
        statusBeforePending: null,
        startedAt: event.periodStart,
        periodEnd: event.periodEnd,
        upfrontMonths: event.upfrontMonths,
        cancelAtPeriodEnd: false,
        nextPlan: null,
        pendingOrderId: state.pendingOrderId === event.orderId ? null : state.pendingOrderId,
        terms: event.terms ?? null,
      });
    case 'PERIOD_ENDED': {
      if (state.status !== 'ACTIVE' || !state.periodEnd || event.now < state.periodEnd)
        return refuse('PLAN_CHANGE_NOT_APPLICABLE');
      if (state.statusReason === 'RENEWAL_DUE') return refuse('ORDER_PENDING');
      if (state.cancelAtPeriodEnd) {
        return to(state, { status: 'INACTIVE', statusReason: 'CANCELLED', cancelAtPeriodEnd: false, nextPlan: null });
      }
      const plan = nextPeriodPlan(state);
      if (plan.type === 'PAY_AS_YOU_GO') {
        // Pay as you go rolls on each month; its use is billed by the month's close (a USAGE order
        // due within the grace days, like a renewal). After a long stop of the sweeps it rolls to
        // the first month end after `now`, in one step.
        const rolled = {
          plan,
          nextPlan: null,
          periodEnd: nextMonthEnd(state.periodEnd, event.now),
          upfrontMonths: null,
          terms: event.terms ?? null,
        };
        if (!event.renewalOrderId) return to(state, rolled);
        return to(state, { ...rolled, statusReason: 'RENEWAL_DUE', pendingOrderId: event.renewalOrderId });
      }
      if (!event.renewalOrderId) return refuse('ORDER_NOT_FOUND');
      // The next period (and its plan: a chosen downgrade) begins with the renewal order's terms.
      return to(state, {
        plan,
        nextPlan: null,
        statusReason: 'RENEWAL_DUE',
        pendingOrderId: event.renewalOrderId,
        terms: event.terms ?? null,
      });
    }
    case 'RENEWAL_FAILED':
      if (state.statusReason !== 'RENEWAL_DUE' || !state.periodEnd) return refuse('PLAN_CHANGE_NOT_APPLICABLE');
      if (event.now < event.dueAt) return refuse('ORDER_PENDING');
      // The order stays open: paying it later makes the plan ACTIVE again (PLAN_PAID, BILL_PAID).
      return to(state, { status: 'INACTIVE', statusReason: 'RENEWAL_FAILED' });
    case 'BILL_PLACED': {
      const waits =
        state.plan.type === 'PAY_AS_YOU_GO' &&
        state.status === 'ACTIVE' &&
        state.statusReason === null &&
        state.pendingOrderId === null;
      if (!waits) return to(state, {});
      return to(state, { statusReason: 'RENEWAL_DUE', pendingOrderId: event.orderId });
    }
    case 'BILL_PAID': {
      if (state.pendingOrderId !== event.orderId) return to(state, {}); // an older bill: nothing waits on it
      const pendingOrderId = event.nextBillOrderId;
      if (state.status === 'DISABLED') return to(state, { pendingOrderId });
      // A bill placed while this one was pending is due in its turn: its due date can fail the plan.
      return to(state, { status: 'ACTIVE', statusReason: pendingOrderId ? 'RENEWAL_DUE' : null, pendingOrderId });
    }
    case 'TRIAL_ENDED':
      if (state.plan.type !== 'TRIAL' || !state.trialEndsAt || event.now < state.trialEndsAt) {
        return refuse('SUBSCRIPTION_NOT_CANCELLABLE');
      }
      if (state.status === 'INACTIVE' || state.status === 'DISABLED') return refuse('PLAN_INACTIVE');
      if (state.status === 'PENDING') {
        // Still awaiting payment: the order's cancellation now returns to INACTIVE. Once only.
        if (state.statusBeforePending !== 'ACTIVE') return refuse('PLAN_INACTIVE');
        return to(state, { statusBeforePending: 'INACTIVE' });
      }
      return to(state, { status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
    case 'TRIAL_EXTENDED': {
      if (state.plan.type !== 'TRIAL') return refuse('SUBSCRIPTION_NOT_CANCELLABLE');
      const extended = { trialEndsAt: event.until };
      if (state.status === 'INACTIVE' && state.statusReason === 'TRIAL_ENDED') {
        return to(state, { ...extended, status: 'ACTIVE', statusReason: 'TRIAL' });
      }
      if (state.status === 'PENDING' && state.statusBeforePending === 'INACTIVE') {
        return to(state, { ...extended, statusBeforePending: 'ACTIVE' });
      }
      return to(state, extended);
    }
    case 'CANCEL_REQUESTED':
      if (state.plan.type === 'TRIAL' || state.status !== 'ACTIVE' || !state.periodEnd) {
        return refuse('SUBSCRIPTION_NOT_CANCELLABLE');
      }
      if (state.statusReason === 'RENEWAL_DUE') return refuse('SUBSCRIPTION_NOT_CANCELLABLE');
      return to(state, { cancelAtPeriodEnd: true, nextPlan: null });
    case 'CANCEL_WITHDRAWN':
      if (!state.cancelAtPeriodEnd) return refuse('SUBSCRIPTION_NOT_CANCELLED');
      return to(state, { cancelAtPeriodEnd: false });
    case 'DOWNGRADE_CHOSEN':
      if (state.plan.type === 'TRIAL' || state.status !== 'ACTIVE') return refuse('SUBSCRIPTION_NOT_CANCELLABLE');
      // The renewal order is placed for the plan of the next period already.
      if (state.statusReason === 'RENEWAL_DUE') return refuse('SUBSCRIPTION_NOT_CANCELLABLE');
      // The trial is never a plan to go down to (it is not on sale).
      if (event.plan && (event.plan.type === 'TRIAL' || rankOf(event.plan) >= rankOf(state.plan))) {
        return refuse('PLAN_ALREADY_CURRENT');
      }
      return to(state, { nextPlan: event.plan, cancelAtPeriodEnd: false });
    case 'PAYMENT_REVERSED':
      return paymentReversed(state, event);
    case 'DISABLED_BY_STAFF':
      // Only a plan in good standing (issue 33 review): ENABLED_BY_STAFF makes it ACTIVE again, so
      // disabling one that waits for a payment or has ended would give it back without the payment.
      if (state.status !== 'ACTIVE' || (state.statusReason !== null && state.statusReason !== 'TRIAL')) {
        return refuse('PLAN_CHANGE_NOT_APPLICABLE');
      }
      return to(state, { status: 'DISABLED', statusReason: 'STAFF', statusBeforePending: null });
    case 'ENABLED_BY_STAFF':
      if (state.status !== 'DISABLED') return refuse('PLAN_CHANGE_NOT_APPLICABLE');
      return to(state, { status: 'ACTIVE', statusReason: state.plan.type === 'TRIAL' ? 'TRIAL' : null });
  }
}

/**
 * A paid order's payment undone (PAYMENT_REVERSED). What its PLAN_PAID set is undone: the plan,
 * its terms, its period, a chosen downgrade or cancellation are as they were just before (`event.before`).
 * A plan order's plan waits for it as it did before it was paid — PENDING, in service only when
 * what the customer had before the order was (a trial, a paid plan), which withdrawing the order
 * gives back; a renewal waits again as it did (RENEWAL_DUE, or RENEWAL_FAILED after its grace
 * days); a month's bill is due again. Another order the plan already waits for keeps its place
 * (a renewal or a bill placed since): the reversed order then waits as an open order of its own
 * (a bill comes in its turn, BILL_PAID), and a plan order's plan is back as it was before it.
 */
function paymentReversed(state: PlanState, event: Extract<PlanEvent, { type: 'PAYMENT_REVERSED' }>): Transition {
  const { before } = event;
  const restored: Partial<PlanState> = before
    ? {
        plan: before.plan,
        startedAt: before.startedAt,
        periodEnd: before.periodEnd,
        upfrontMonths: before.upfrontMonths,
        cancelAtPeriodEnd: before.cancelAtPeriodEnd,
        nextPlan: before.nextPlan,
        terms: before.terms,
      }
    : {};
  const waiting = state.pendingOrderId !== null && state.pendingOrderId !== event.orderId ? state.pendingOrderId : null;
  // Staff disabled the plan meanwhile: it stays so; the order waits (unless another one does).
  if (state.status === 'DISABLED') return to(state, { ...restored, pendingOrderId: waiting ?? event.orderId });
  if (event.kind === 'PLAN') {
    // What the customer had before placing the order (one paid as it was placed never went PENDING).
    const was: PlanStatus = !before
      ? 'INACTIVE'
      : before.status === 'PENDING'
        ? (before.statusBeforePending ?? 'INACTIVE')
        : before.status;
    const back = { ...state, ...restored };
    if (!waiting) {
      return to(back, {
        status: 'PENDING',
        statusReason: 'AWAITING_PAYMENT',
        statusBeforePending: was,
        pendingOrderId: event.orderId,
      });
    }
    const statusReason =
      was === 'ACTIVE' && state.statusReason === 'RENEWAL_DUE' ? 'RENEWAL_DUE' : reasonWhenBack(back, was);
    return to(back, { status: was, statusReason, statusBeforePending: null });
  }
  if (waiting) return to(state, {});
  if (event.kind === 'RENEWAL' && before?.pendingOrderId === event.orderId && before.status !== 'PENDING') {
    return to(state, {
      ...restored,
      status: before.status,
      statusReason: before.statusReason,
      pendingOrderId: event.orderId,
    });
  }
  // Due again (its grace days, then RENEWAL_FAILED).
  return to(state, { ...restored, statusReason: 'RENEWAL_DUE', pendingOrderId: event.orderId });
}

/** The plan as stored on an order (`orders.plan_before`): JSON, its dates as ISO strings. */
export type PlanSnapshot = Record<string, unknown>;

export function toSnapshot(state: PlanState): PlanSnapshot {
  return JSON.parse(JSON.stringify(state)) as PlanSnapshot;
}

export function fromSnapshot(snapshot: PlanSnapshot | null): PlanState | null {
  if (!snapshot) return null;
  const s = snapshot as unknown as Record<keyof PlanState, unknown>;
  const date = (value: unknown) => (typeof value === 'string' ? new Date(value) : null);
  return {
    plan: s.plan as PlanRef,
    status: s.status as PlanStatus,
    statusReason: (s.statusReason ?? null) as TPlanStatusReason | null,
    statusBeforePending: (s.statusBeforePending ?? null) as PlanStatus | null,
    startedAt: date(s.startedAt) ?? new Date(0),
    periodEnd: date(s.periodEnd),
    upfrontMonths: (s.upfrontMonths ?? null) as number | null,
    trialEndsAt: date(s.trialEndsAt),
    cancelAtPeriodEnd: Boolean(s.cancelAtPeriodEnd),
    nextPlan: (s.nextPlan ?? null) as PlanRef | null,
    pendingOrderId: (s.pendingOrderId ?? null) as string | null,
    // Recorded since issue 33; an older snapshot reads the tier (null).
    terms: (s.terms ?? null) as PlanTerms | null,
  };
}

/** The reason of the status an order's cancellation returns to. */
function reasonWhenBack(state: PlanState, status: PlanStatus): TPlanStatusReason | null {
  if (status === 'ACTIVE') return state.plan.type === 'TRIAL' ? 'TRIAL' : null;
  if (state.plan.type === 'TRIAL') return 'TRIAL_ENDED';
  return 'CANCELLED';
}
