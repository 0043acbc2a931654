import { describe, expect, it } from 'vitest';
import { PLAN_TERMS } from '@connect/shared';
import {
  addDays,
  addMonths,
  canOrder,
  isInService,
  nextPeriodPlan,
  periodMonths,
  rankOf,
  transition,
  type PlanEvent,
  type PlanRef,
  type PlanState,
  type Transition,
} from './transitions.ts';

type PlanType = PlanRef['type'];
const plan = (id: string, type: PlanType, tier: PlanRef['tier'], name: string): PlanRef => ({ id, type, tier, name });
const TRIAL = plan('trial', 'TRIAL', 'standard', 'Trial');
const PAYG = plan('payg-std', 'PAY_AS_YOU_GO', 'standard', 'Pay as you go');
const PAYG_ADV = plan('payg-adv', 'PAY_AS_YOU_GO', 'advance', 'Pay as you go — Advance');
const ANNUAL = plan('annual-std', 'SUBSCRIPTION', 'standard', 'Annual Subscription');
const ANNUAL_ADV = plan('annual-adv', 'SUBSCRIPTION', 'advance', 'Annual Subscription — Advance');

const T0 = new Date('2026-01-31T10:00:00.000Z');
const END = new Date('2027-01-31T10:00:00.000Z');

const trial = (changes: Partial<PlanState> = {}): PlanState => ({
  plan: TRIAL,
  status: 'ACTIVE',
  statusReason: 'TRIAL',
  statusBeforePending: null,
  startedAt: T0,
  periodEnd: null,
  upfrontMonths: null,
  trialEndsAt: addDays(T0, PLAN_TERMS.trialDays),
  cancelAtPeriodEnd: false,
  nextPlan: null,
  pendingOrderId: null,
  terms: null,
  ...changes,
});
const annual = (changes: Partial<PlanState> = {}): PlanState =>
  trial({ plan: ANNUAL, statusReason: null, periodEnd: END, ...changes });
const payg = (changes: Partial<PlanState> = {}): PlanState =>
  trial({ plan: PAYG, statusReason: null, periodEnd: addMonths(T0, 1), ...changes });

function ok(answer: Transition): PlanState {
  if (!answer.ok) throw new Error(`refused: ${answer.code}`);
  return answer.state;
}
const refused = (answer: Transition) => (answer.ok ? 'applied' : answer.code);
const paid = (p: PlanRef, start = T0, end = END): PlanEvent => ({
  type: 'PLAN_PAID',
  orderId: 'order-1',
  plan: p,
  periodStart: start,
  periodEnd: end,
  upfrontMonths: null,
});

describe('plan transitions (pure)', () => {
  it('ranks trial < pay as you go standard < advance < annual standard < advance', () => {
    expect([TRIAL, PAYG, PAYG_ADV, ANNUAL, ANNUAL_ADV].map(rankOf)).toEqual([0, 1, 2, 3, 4]);
  });

  it('dates: months keep the day where it exists, else the last day; periods last a month or a year', () => {
    expect(addMonths(new Date('2026-01-31T00:00:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addMonths(new Date('2024-01-31T00:00:00Z'), 1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addMonths(new Date('2026-03-15T08:00:00Z'), 12).toISOString()).toBe('2027-03-15T08:00:00.000Z');
    expect(addDays(T0, 14).toISOString()).toBe('2026-02-14T10:00:00.000Z');
    expect(periodMonths(PAYG, null)).toBe(1);
    expect(periodMonths(ANNUAL, null)).toBe(12);
    expect(periodMonths(ANNUAL, 24)).toBe(24);
  });

  it('in service: ACTIVE, or PENDING behind an ACTIVE plan', () => {
    expect(isInService({ status: 'ACTIVE', statusBeforePending: null })).toBe(true);
    expect(isInService({ status: 'PENDING', statusBeforePending: 'ACTIVE' })).toBe(true);
    expect(isInService({ status: 'PENDING', statusBeforePending: 'INACTIVE' })).toBe(false);
    expect(isInService({ status: 'INACTIVE', statusBeforePending: null })).toBe(false);
    expect(isInService({ status: 'DISABLED', statusBeforePending: null })).toBe(false);
  });

  describe('ORDER_PLACED', () => {
    it('an upgrade waits for its payment: PENDING behind the status it had', () => {
      const state = ok(transition(trial(), { type: 'ORDER_PLACED', orderId: 'o1', plan: ANNUAL }));
      expect(state).toMatchObject({
        status: 'PENDING',
        statusReason: 'AWAITING_PAYMENT',
        statusBeforePending: 'ACTIVE',
        pendingOrderId: 'o1',
        plan: TRIAL,
      });
    });

    it('refuses a second order, the same plan, a lower plan, a disabled plan and anything while a renewal is due', () => {
      const pending = ok(transition(trial(), { type: 'ORDER_PLACED', orderId: 'o1', plan: ANNUAL }));
      expect(refused(transition(pending, { type: 'ORDER_PLACED', orderId: 'o2', plan: PAYG }))).toBe('ORDER_PENDING');
      expect(refused(transition(annual(), { type: 'ORDER_PLACED', orderId: 'o', plan: ANNUAL }))).toBe(
        'PLAN_ALREADY_CURRENT',
      );
      expect(refused(transition(annual(), { type: 'ORDER_PLACED', orderId: 'o', plan: PAYG }))).toBe(
        'PLAN_NOT_AN_UPGRADE',
      );
      const disabled = annual({ status: 'DISABLED', statusReason: 'STAFF' });
      expect(refused(transition(disabled, { type: 'ORDER_PLACED', orderId: 'o', plan: ANNUAL_ADV }))).toBe(
        'PLAN_INACTIVE',
      );
      const due = annual({ statusReason: 'RENEWAL_DUE', pendingOrderId: 'renewal' });
      expect(refused(transition(due, { type: 'ORDER_PLACED', orderId: 'o', plan: ANNUAL_ADV }))).toBe('ORDER_PENDING');
      expect(canOrder(annual(), ANNUAL_ADV)).toBeNull();
    });

    it('an INACTIVE plan may order any plan, the same one included', () => {
      const inactive = annual({ status: 'INACTIVE', statusReason: 'CANCELLED' });
      const state = ok(transition(inactive, { type: 'ORDER_PLACED', orderId: 'o', plan: ANNUAL }));
      expect(state).toMatchObject({ status: 'PENDING', statusBeforePending: 'INACTIVE' });
      expect(isInService(state)).toBe(false);
    });
  });

  describe('ORDER_CANCELLED', () => {
    it('returns to the status before the order, with its reason', () => {
      const pending = ok(transition(trial(), { type: 'ORDER_PLACED', orderId: 'o1', plan: ANNUAL }));
      expect(ok(transition(pending, { type: 'ORDER_CANCELLED', orderId: 'o1' }))).toEqual(trial());
      const lapsed = trial({ status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
      const again = ok(transition(lapsed, { type: 'ORDER_PLACED', orderId: 'o2', plan: PAYG }));
      expect(ok(transition(again, { type: 'ORDER_CANCELLED', orderId: 'o2' }))).toMatchObject({
        status: 'INACTIVE',
        statusReason: 'TRIAL_ENDED',
        pendingOrderId: null,
      });
    });

    it('refuses another order than the one waiting', () => {
      const pending = ok(transition(trial(), { type: 'ORDER_PLACED', orderId: 'o1', plan: ANNUAL }));
      expect(refused(transition(pending, { type: 'ORDER_CANCELLED', orderId: 'other' }))).toBe(
        'PLAN_CHANGE_NOT_APPLICABLE',
      );
    });

    it('a cancelled renewal order leaves the grace days to decide', () => {
      const due = annual({ statusReason: 'RENEWAL_DUE', pendingOrderId: 'r1' });
      expect(ok(transition(due, { type: 'ORDER_CANCELLED', orderId: 'r1' }))).toMatchObject({
        status: 'ACTIVE',
        statusReason: 'RENEWAL_DUE',
        pendingOrderId: null,
      });
    });
  });

  describe('PLAN_PAID', () => {
    it('makes the paid plan ACTIVE for its period, clearing a cancellation and a downgrade', () => {
      const pending = ok(transition(trial(), { type: 'ORDER_PLACED', orderId: 'order-1', plan: ANNUAL }));
      expect(ok(transition(pending, paid(ANNUAL)))).toMatchObject({
        plan: ANNUAL,
        status: 'ACTIVE',
        statusReason: null,
        statusBeforePending: null,
        startedAt: T0,
        periodEnd: END,
        pendingOrderId: null,
      });
      const cancelling = annual({ cancelAtPeriodEnd: true, nextPlan: PAYG });
      expect(ok(transition(cancelling, paid(ANNUAL_ADV)))).toMatchObject({ cancelAtPeriodEnd: false, nextPlan: null });
    });

    it('a renewal paid after the grace days makes the plan ACTIVE again; a disabled plan is refused', () => {
      const failed = annual({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED', pendingOrderId: 'order-1' });
      expect(ok(transition(failed, paid(ANNUAL, END, addMonths(END, 12))))).toMatchObject({
        status: 'ACTIVE',
        periodEnd: addMonths(END, 12),
        pendingOrderId: null,
      });
      expect(refused(transition(annual({ status: 'DISABLED' }), paid(ANNUAL)))).toBe('PLAN_INACTIVE');
    });
  });

  describe('PERIOD_ENDED', () => {
    it('is not due before the period end', () => {
      expect(refused(transition(annual(), { type: 'PERIOD_ENDED', now: addDays(END, -1), renewalOrderId: 'r' }))).toBe(
        'PLAN_CHANGE_NOT_APPLICABLE',
      );
      expect(refused(transition(trial(), { type: 'PERIOD_ENDED', now: END, renewalOrderId: null }))).toBe(
        'PLAN_CHANGE_NOT_APPLICABLE',
      );
    });

    it('a cancelled plan turns INACTIVE, reason CANCELLED', () => {
      const state = ok(
        transition(annual({ cancelAtPeriodEnd: true }), { type: 'PERIOD_ENDED', now: END, renewalOrderId: null }),
      );
      expect(state).toMatchObject({ status: 'INACTIVE', statusReason: 'CANCELLED', cancelAtPeriodEnd: false });
    });

    it('pay as you go rolls on a month (to the first month end after now after a long stop)', () => {
      const end = addMonths(T0, 1);
      expect(ok(transition(payg(), { type: 'PERIOD_ENDED', now: end, renewalOrderId: null })).periodEnd).toEqual(
        addMonths(end, 1),
      );
      const late = addDays(end, 70);
      const rolled = ok(transition(payg(), { type: 'PERIOD_ENDED', now: late, renewalOrderId: null }));
      expect(rolled.periodEnd).toEqual(addMonths(end, 3));
      expect(rolled.periodEnd!.getTime()).toBeGreaterThan(late.getTime());
      expect(rolled.status).toBe('ACTIVE');
    });

    it('a subscription needs its renewal order: ACTIVE, RENEWAL_DUE, with the order pending', () => {
      expect(refused(transition(annual(), { type: 'PERIOD_ENDED', now: END, renewalOrderId: null }))).toBe(
        'ORDER_NOT_FOUND',
      );
      const due = ok(transition(annual(), { type: 'PERIOD_ENDED', now: END, renewalOrderId: 'r1' }));
      expect(due).toMatchObject({
        status: 'ACTIVE',
        statusReason: 'RENEWAL_DUE',
        pendingOrderId: 'r1',
        periodEnd: END,
      });
      expect(isInService(due)).toBe(true);
      // Once: the period has ended already.
      expect(refused(transition(due, { type: 'PERIOD_ENDED', now: END, renewalOrderId: 'r2' }))).toBe('ORDER_PENDING');
    });

    it('a chosen downgrade becomes the plan at the period end', () => {
      const toAnnual = annual({ plan: ANNUAL_ADV, nextPlan: ANNUAL });
      expect(nextPeriodPlan(toAnnual)).toEqual(ANNUAL);
      expect(ok(transition(toAnnual, { type: 'PERIOD_ENDED', now: END, renewalOrderId: 'r' }))).toMatchObject({
        plan: ANNUAL,
        nextPlan: null,
      });
      const toPayg = annual({ nextPlan: PAYG });
      expect(ok(transition(toPayg, { type: 'PERIOD_ENDED', now: END, renewalOrderId: null }))).toMatchObject({
        plan: PAYG,
        periodEnd: addMonths(END, 1),
        statusReason: null,
      });
    });
  });

  describe('RENEWAL_FAILED', () => {
    const due = annual({ statusReason: 'RENEWAL_DUE', pendingOrderId: 'r1' });
    it(`turns INACTIVE ${PLAN_TERMS.renewalGraceDays} days after the period end, not before, keeping the order`, () => {
      const grace = addDays(END, PLAN_TERMS.renewalGraceDays);
      expect(refused(transition(due, { type: 'RENEWAL_FAILED', now: addDays(grace, -0.01), dueAt: grace }))).toBe(
        'ORDER_PENDING',
      );
      expect(ok(transition(due, { type: 'RENEWAL_FAILED', now: grace, dueAt: grace }))).toMatchObject({
        status: 'INACTIVE',
        statusReason: 'RENEWAL_FAILED',
        pendingOrderId: 'r1',
      });
    });
    it('only a renewal that is due fails', () => {
      expect(refused(transition(annual(), { type: 'RENEWAL_FAILED', now: addDays(END, 100), dueAt: END }))).toBe(
        'PLAN_CHANGE_NOT_APPLICABLE',
      );
    });
  });

  describe('BILL_PLACED (the month’s close, for every billed plan at once)', () => {
    const placed = (orderId: string): PlanEvent => ({ type: 'BILL_PLACED', orderId });
    it('a pay-as-you-go plan in good standing waits for its bill (RENEWAL_DUE)', () => {
      expect(ok(transition(payg(), placed('b1')))).toEqual(payg({ statusReason: 'RENEWAL_DUE', pendingOrderId: 'b1' }));
    });
    it('a plan waiting for an older bill keeps it; any other plan is left as it is', () => {
      const waiting = payg({ statusReason: 'RENEWAL_DUE', pendingOrderId: 'b1' });
      expect(ok(transition(waiting, placed('b2')))).toEqual(waiting);
      const failed = payg({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED', pendingOrderId: 'b1' });
      expect(ok(transition(failed, placed('b2')))).toEqual(failed);
      expect(ok(transition(annual(), placed('b2')))).toEqual(annual());
      expect(ok(transition(trial(), placed('b2')))).toEqual(trial());
      const disabled = payg({ status: 'DISABLED', statusReason: 'STAFF' });
      expect(ok(transition(disabled, placed('b2')))).toEqual(disabled);
    });
  });

  describe('BILL_PAID', () => {
    const bill = (orderId: string, nextBillOrderId: string | null = null): PlanEvent => ({
      type: 'BILL_PAID',
      orderId,
      nextBillOrderId,
    });
    const waiting = payg({ statusReason: 'RENEWAL_DUE', pendingOrderId: 'b1' });
    it('the bill the plan waits for, paid: in good standing again, ACTIVE even after it failed', () => {
      expect(ok(transition(waiting, bill('b1')))).toMatchObject({ statusReason: null, pendingOrderId: null });
      const failed = payg({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED', pendingOrderId: 'b1' });
      expect(ok(transition(failed, bill('b1')))).toMatchObject({ status: 'ACTIVE', statusReason: null });
    });
    it('a later bill still unpaid is waited for next', () => {
      const failed = payg({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED', pendingOrderId: 'b1' });
      expect(ok(transition(failed, bill('b1', 'b2')))).toMatchObject({
        status: 'ACTIVE',
        statusReason: 'RENEWAL_DUE',
        pendingOrderId: 'b2',
      });
    });
    it('another bill than the one waited for changes nothing', () => {
      expect(ok(transition(waiting, bill('b0', 'b1')))).toEqual(waiting);
    });
  });

  describe('TRIAL_ENDED', () => {
    const end = addDays(T0, PLAN_TERMS.trialDays);
    it('the trial turns INACTIVE at its end, not before, once', () => {
      expect(refused(transition(trial(), { type: 'TRIAL_ENDED', now: addDays(end, -0.01) }))).toBe(
        'SUBSCRIPTION_NOT_CANCELLABLE',
      );
      const ended = ok(transition(trial(), { type: 'TRIAL_ENDED', now: end }));
      expect(ended).toMatchObject({ status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
      expect(refused(transition(ended, { type: 'TRIAL_ENDED', now: end }))).toBe('PLAN_INACTIVE');
      expect(refused(transition(annual(), { type: 'TRIAL_ENDED', now: end }))).toBe('SUBSCRIPTION_NOT_CANCELLABLE');
    });
    it('a trial awaiting an order stays PENDING, now behind INACTIVE (once)', () => {
      const pending = ok(transition(trial(), { type: 'ORDER_PLACED', orderId: 'o1', plan: ANNUAL }));
      const ended = ok(transition(pending, { type: 'TRIAL_ENDED', now: end }));
      expect(ended).toMatchObject({ status: 'PENDING', statusBeforePending: 'INACTIVE' });
      expect(isInService(ended)).toBe(false);
      expect(refused(transition(ended, { type: 'TRIAL_ENDED', now: end }))).toBe('PLAN_INACTIVE');
      expect(ok(transition(ended, { type: 'ORDER_CANCELLED', orderId: 'o1' }))).toMatchObject({
        status: 'INACTIVE',
        statusReason: 'TRIAL_ENDED',
      });
    });
  });

  describe('TRIAL_EXTENDED', () => {
    const until = addDays(T0, 60);
    it('moves the trial end; an ended trial is ACTIVE again', () => {
      expect(ok(transition(trial(), { type: 'TRIAL_EXTENDED', until })).trialEndsAt).toEqual(until);
      const ended = trial({ status: 'INACTIVE', statusReason: 'TRIAL_ENDED' });
      expect(ok(transition(ended, { type: 'TRIAL_EXTENDED', until }))).toMatchObject({
        status: 'ACTIVE',
        statusReason: 'TRIAL',
        trialEndsAt: until,
      });
      const pendingEnded = trial({ status: 'PENDING', statusBeforePending: 'INACTIVE', pendingOrderId: 'o' });
      expect(ok(transition(pendingEnded, { type: 'TRIAL_EXTENDED', until })).statusBeforePending).toBe('ACTIVE');
      expect(refused(transition(annual(), { type: 'TRIAL_EXTENDED', until }))).toBe('SUBSCRIPTION_NOT_CANCELLABLE');
    });
  });

  describe('CANCEL_REQUESTED and CANCEL_WITHDRAWN', () => {
    it('a paid plan ends at its period end; withdrawing renews it again', () => {
      const cancelling = ok(transition(annual({ nextPlan: PAYG }), { type: 'CANCEL_REQUESTED' }));
      expect(cancelling).toMatchObject({ status: 'ACTIVE', cancelAtPeriodEnd: true, nextPlan: null, periodEnd: END });
      expect(ok(transition(cancelling, { type: 'CANCEL_WITHDRAWN' })).cancelAtPeriodEnd).toBe(false);
      expect(ok(transition(payg(), { type: 'CANCEL_REQUESTED' })).cancelAtPeriodEnd).toBe(true);
    });
    it('refuses the trial, a plan not active, a renewal due; withdrawing what was not cancelled', () => {
      for (const state of [
        trial(),
        annual({ status: 'INACTIVE', statusReason: 'CANCELLED' }),
        annual({ status: 'PENDING', statusBeforePending: 'ACTIVE' }),
        annual({ statusReason: 'RENEWAL_DUE' }),
      ]) {
        expect(refused(transition(state, { type: 'CANCEL_REQUESTED' }))).toBe('SUBSCRIPTION_NOT_CANCELLABLE');
      }
      expect(refused(transition(annual(), { type: 'CANCEL_WITHDRAWN' }))).toBe('SUBSCRIPTION_NOT_CANCELLED');
    });
  });

  describe('DOWNGRADE_CHOSEN', () => {
    it('a lower plan for the next period (withdrawing a cancellation), or null to keep the plan', () => {
      const chosen = ok(
        transition(annual({ plan: ANNUAL_ADV, cancelAtPeriodEnd: true }), { type: 'DOWNGRADE_CHOSEN', plan: PAYG }),
      );
      expect(chosen).toMatchObject({ plan: ANNUAL_ADV, nextPlan: PAYG, cancelAtPeriodEnd: false });
      expect(ok(transition(chosen, { type: 'DOWNGRADE_CHOSEN', plan: null })).nextPlan).toBeNull();
    });
    it('refuses a plan not lower, the trial as a plan, the trial itself, a plan not active, a renewal due', () => {
      expect(refused(transition(annual(), { type: 'DOWNGRADE_CHOSEN', plan: ANNUAL }))).toBe('PLAN_ALREADY_CURRENT');
      expect(refused(transition(annual(), { type: 'DOWNGRADE_CHOSEN', plan: ANNUAL_ADV }))).toBe(
        'PLAN_ALREADY_CURRENT',
      );
      expect(refused(transition(annual(), { type: 'DOWNGRADE_CHOSEN', plan: TRIAL }))).toBe('PLAN_ALREADY_CURRENT');
      expect(refused(transition(trial(), { type: 'DOWNGRADE_CHOSEN', plan: null }))).toBe(
        'SUBSCRIPTION_NOT_CANCELLABLE',
      );
      expect(refused(transition(annual({ status: 'INACTIVE' }), { type: 'DOWNGRADE_CHOSEN', plan: PAYG }))).toBe(
        'SUBSCRIPTION_NOT_CANCELLABLE',
      );
      expect(
        refused(transition(annual({ statusReason: 'RENEWAL_DUE' }), { type: 'DOWNGRADE_CHOSEN', plan: PAYG })),
      ).toBe('SUBSCRIPTION_NOT_CANCELLABLE');
    });
  });

  describe('DISABLED_BY_STAFF and ENABLED_BY_STAFF', () => {
    it('staff disable a plan in good standing and enable it again (the trial with its reason)', () => {
      const disabled = ok(transition(annual(), { type: 'DISABLED_BY_STAFF' }));
      expect(disabled).toMatchObject({ status: 'DISABLED', statusReason: 'STAFF' });
      expect(isInService(disabled)).toBe(false);
      expect(ok(transition(disabled, { type: 'ENABLED_BY_STAFF' }))).toMatchObject({
        status: 'ACTIVE',
        statusReason: null,
      });
      const trialDisabled = ok(transition(trial(), { type: 'DISABLED_BY_STAFF' }));
      expect(ok(transition(trialDisabled, { type: 'ENABLED_BY_STAFF' })).statusReason).toBe('TRIAL');
      expect(refused(transition(annual(), { type: 'ENABLED_BY_STAFF' }))).toBe('PLAN_CHANGE_NOT_APPLICABLE');
      const ended = annual({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED' });
      expect(refused(transition(ended, { type: 'DISABLED_BY_STAFF' }))).toBe('PLAN_CHANGE_NOT_APPLICABLE');
    });
  });
});

describe('a payment taken back (PAYMENT_REVERSED, issue 27 §4)', () => {
  const reversed = (orderId: string, kind: 'PLAN' | 'RENEWAL' | 'USAGE', before: PlanState | null): PlanEvent => ({
    type: 'PAYMENT_REVERSED',
    orderId,
    kind,
    before,
  });
  /** Places `orderId` for `p` from `state` and pays it: the plan it then has, and the plan just before the payment. */
  const upgrade = (state: PlanState, p: PlanRef, orderId = 'order-1') => {
    const pending = ok(transition(state, { type: 'ORDER_PLACED', orderId, plan: p }));
    return { pending, paidState: ok(transition(pending, { ...paid(p, addDays(T0, 3)), orderId } as PlanEvent)) };
  };

  it('puts a plan order’s plan back to awaiting payment, out of service, when nothing was recorded; withdrawing it then leaves it inactive', () => {
    const back = ok(transition(annual(), reversed('order-1', 'PLAN', null)));
    expect(back).toMatchObject({ status: 'PENDING', statusReason: 'AWAITING_PAYMENT', pendingOrderId: 'order-1' });
    expect(isInService(back)).toBe(false);
    expect(ok(transition(back, { type: 'ORDER_CANCELLED', orderId: 'order-1' })).status).toBe('INACTIVE');
    expect(ok(transition(back, paid(ANNUAL))).status).toBe('ACTIVE');
  });

  it('gives a customer on a trial their trial back: in service while the order waits, and the trial once it is withdrawn', () => {
    const { pending, paidState } = upgrade(trial(), ANNUAL);
    const back = ok(transition(paidState, reversed('order-1', 'PLAN', pending)));
    expect(back).toMatchObject({
      plan: TRIAL,
      status: 'PENDING',
      statusReason: 'AWAITING_PAYMENT',
      statusBeforePending: 'ACTIVE',
      periodEnd: null,
      pendingOrderId: 'order-1',
    });
    expect(isInService(back)).toBe(true);
    expect(ok(transition(back, { type: 'ORDER_CANCELLED', orderId: 'order-1' }))).toEqual(trial());
  });

  it('gives a customer on a paid plan that plan and its period back (an upgrade taken back)', () => {
    const before = annual({ nextPlan: null, cancelAtPeriodEnd: true });
    const { pending, paidState } = upgrade(before, ANNUAL_ADV);
    expect(paidState).toMatchObject({ plan: ANNUAL_ADV, cancelAtPeriodEnd: false });
    const back = ok(transition(paidState, reversed('order-1', 'PLAN', pending)));
    expect(back).toMatchObject({
      plan: ANNUAL,
      periodEnd: END,
      cancelAtPeriodEnd: true,
      statusBeforePending: 'ACTIVE',
    });
    expect(isInService(back)).toBe(true);
    expect(ok(transition(back, { type: 'ORDER_CANCELLED', orderId: 'order-1' }))).toEqual(before);
    // Paid again, the order makes the new plan active as the first payment did.
    expect(ok(transition(back, paid(ANNUAL_ADV)))).toMatchObject({ plan: ANNUAL_ADV, status: 'ACTIVE' });
  });

  it('keeps another order the plan waits for (a bill or renewal placed since): the plan is back as it was before the reversed order', () => {
    const { pending, paidState } = upgrade(payg(), PAYG_ADV);
    // The month's bill of the new plan is placed and waits.
    const billed = { ...paidState, statusReason: 'RENEWAL_DUE' as const, pendingOrderId: 'bill-1' };
    const back = ok(transition(billed, reversed('order-1', 'PLAN', pending)));
    expect(back).toMatchObject({ plan: PAYG, status: 'ACTIVE', statusReason: 'RENEWAL_DUE', pendingOrderId: 'bill-1' });
    // A bill reversed while a later one waits: the later one keeps its place (the older comes in its turn).
    expect(ok(transition(billed, reversed('bill-0', 'USAGE', null)))).toEqual(billed);
    const disabled = { ...billed, status: 'DISABLED' as const, statusReason: 'STAFF' as const };
    expect(ok(transition(disabled, reversed('order-1', 'PLAN', pending)))).toMatchObject({
      status: 'DISABLED',
      plan: PAYG,
      pendingOrderId: 'bill-1',
    });
  });

  it('makes a renewal due again as it was (its period back), or failed if it was paid after its grace days; a bill due again; a disabled plan stays disabled', () => {
    const due = annual({ periodEnd: END, statusReason: 'RENEWAL_DUE', pendingOrderId: 'r-1' });
    const renewed = ok(transition(due, { ...paid(ANNUAL, END, addMonths(END, 12)), orderId: 'r-1' } as PlanEvent));
    expect(ok(transition(renewed, reversed('r-1', 'RENEWAL', due)))).toEqual(due);
    const failed = { ...due, status: 'INACTIVE' as const, statusReason: 'RENEWAL_FAILED' as const };
    expect(ok(transition(renewed, reversed('r-1', 'RENEWAL', failed)))).toEqual(failed);
    expect(ok(transition(annual(), reversed('r-1', 'RENEWAL', null)))).toMatchObject({
      status: 'ACTIVE',
      statusReason: 'RENEWAL_DUE',
      pendingOrderId: 'r-1',
    });
    expect(ok(transition(payg(), reversed('u-1', 'USAGE', null)))).toMatchObject({
      statusReason: 'RENEWAL_DUE',
      pendingOrderId: 'u-1',
    });
    const disabled = annual({ status: 'DISABLED', statusReason: 'STAFF' });
    expect(ok(transition(disabled, reversed('o-1', 'PLAN', null)))).toMatchObject({
      status: 'DISABLED',
      pendingOrderId: 'o-1',
    });
  });
});
