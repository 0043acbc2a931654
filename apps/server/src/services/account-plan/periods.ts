import type { Database } from '@connect/db';
import { PLAN_TERMS, type TPaymentMethod } from '@connect/shared';
import type { EventBus } from '../../events/port.ts';
import { AccountPlansRepository } from '../../repositories/account-plans.ts';
import type { PlanLifecycle } from './lifecycle.ts';
import type { AccountPlanRepository } from './repository.ts';
import { addDays, addMonths, nextPeriodPlan, periodMonths, transition, type PlanRef } from './transitions.ts';

/** A renewal order placed in the caller's transaction (OrderService, orders.ts). */
export type RenewalOrders = {
  placeRenewal(
    tx: Database,
    input: { accountId: string; plan: PlanRef; periodStart: Date; periodEnd: Date; paymentMethod: TPaymentMethod },
  ): Promise<string>;
};

/** The customer is told of a trial reminder (connect's account-notice-subscribers.ts: bell and email, once per key). */
export type TrialReminderNotices = {
  trialReminder(reminder: { accountId: string; days: number; trialEndsAt: Date; now: Date }): Promise<void>;
};

/** What one sweep did: how many accounts each step changed (or reminded). */
export type SweepReport = { reminded: number; trialsEnded: number; periodsEnded: number; renewalsFailed: number };

/** The account-plan service's face for the jobs (deps.runtime.accountPlan). */
export type AccountPlanRuntime = { sweep(now: Date): Promise<SweepReport> };

const DAY_MS = 86_400_000;

/**
 * The plans' time: the steps that happen because a date passed, each a function of `now` (tests
 * give it; the plan-periods job gives the clock). A step selects its candidates, then applies the
 * transition with the lifecycle, which locks the plan row and re-checks it: run twice, or on two
 * nodes at once, the second finds nothing due and changes nothing. Emails follow from the
 * `plan.changed` events (once per event); a reminder is keyed by account and reminder.
 */
export class PlanPeriods implements AccountPlanRuntime {
  constructor(
    private readonly deps: {
      db: Database;
      events: EventBus;
      repo: AccountPlanRepository;
      lifecycle: PlanLifecycle;
      orders: RenewalOrders;
      notices: TrialReminderNotices;
      /** The methods taken now: a renewal is offered the way the last order was paid, else the first of these. */
      paymentMethods: readonly TPaymentMethod[];
    },
  ) {}

  /** Every step, in an order where one step's change never hides another's candidates. */
  async sweep(now: Date): Promise<SweepReport> {
    const trialsEnded = await this.endTrials(now);
    const reminded = await this.remindTrials(now);
    const periodsEnded = await this.endPeriods(now);
    const renewalsFailed = await this.failRenewals(now);
    return { reminded, trialsEnded, periodsEnded, renewalsFailed };
  }

  /**
   * Reminders PLAN_TERMS.trialReminderDays before a trial ends: the nearest one due (a trial that
   * starts with 5 days left gets the 1-day reminder only when 1 day is left, and never the 7-day
   * one afterwards). Told once per account and reminder, however often the sweep runs.
   */
  async remindTrials(now: Date): Promise<number> {
    const days = [...PLAN_TERMS.trialReminderDays].sort((a, b) => a - b);
    const furthest = days[days.length - 1] ?? 0;
    const trials = await this.deps.repo.trialsEndingBy(now, addDays(now, furthest));
    let reminded = 0;
    for (const { accountId, due } of trials) {
      const left = (due.getTime() - now.getTime()) / DAY_MS;
      const reminder = days.find((day) => left <= day);
      if (reminder === undefined) continue;
      await this.deps.notices.trialReminder({ accountId, days: reminder, trialEndsAt: due, now });
      reminded++;
    }
    return reminded;
  }

  /** Trials whose end has come: INACTIVE, reason TRIAL_ENDED. */
  async endTrials(now: Date): Promise<number> {
    const trials = await this.deps.repo.trialsEnded(now);
    let ended = 0;
    for (const { accountId } of trials) {
      if (await this.deps.lifecycle.applyIfDue(accountId, { type: 'TRIAL_ENDED', now })) ended++;
    }
    return ended;
  }

  /**
   * Paid periods that ended: a cancelled plan turns INACTIVE, pay as you go rolls on a month (its
   * use is billed by the calendar month's close, payment/invoices/close.ts), a
   * subscription gets its renewal order (for the plan of the next period: a chosen downgrade)
   * placed in the same transaction as the change, so two nodes never place two. The new period
   * begins with the renewal order's terms, or pay as you go's tier as it is now (PlanLifecycle).
   */
  async endPeriods(now: Date): Promise<number> {
    const plans = await this.deps.repo.periodsEnded(now);
    let ended = 0;
    for (const { accountId } of plans) {
      if (await this.endPeriod(accountId, now, await this.renewalMethod(accountId))) ended++;
    }
    return ended;
  }

  private async renewalMethod(accountId: string): Promise<TPaymentMethod> {
    const { repo, paymentMethods } = this.deps;
    const last = await repo.lastPaymentMethod(accountId);
    if (last && paymentMethods.includes(last)) return last;
    return paymentMethods[0] ?? 'BANK_TRANSFER';
  }

  private endPeriod(accountId: string, now: Date, paymentMethod: TPaymentMethod): Promise<boolean> {
    const { db, events, lifecycle, orders } = this.deps;
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      // Locked first: the renewal order is placed only by the transaction that then ends the period.
      const state = await new AccountPlansRepository(tx, events).state(accountId, { lock: true });
      if (!state?.periodEnd) return false;
      const withoutOrder = transition(state, { type: 'PERIOD_ENDED', now, renewalOrderId: null });
      if (withoutOrder.ok) {
        // Pay as you go rolls on: its use is billed by the month's close (payment/invoices/close.ts).
        await lifecycle.apply(accountId, { type: 'PERIOD_ENDED', now, renewalOrderId: null }, { tx });
        return true;
      }
      // Anything but "a renewal order is needed" means the period is not due (any more).
      if (withoutOrder.code !== 'ORDER_NOT_FOUND') return false;
      const plan = nextPeriodPlan(state);
      const periodStart = state.periodEnd;
      const periodEnd = addMonths(periodStart, periodMonths(plan, null));
      const renewalOrderId = await orders.placeRenewal(tx, { accountId, plan, periodStart, periodEnd, paymentMethod });
      await lifecycle.apply(accountId, { type: 'PERIOD_ENDED', now, renewalOrderId }, { tx });
      return true;
    });
  }

  /**
   * Renewals and month's bills (the close's USAGE orders) unpaid on their due date (the grace
   * days): INACTIVE, reason RENEWAL_FAILED.
   */
  async failRenewals(now: Date): Promise<number> {
    const plans = await this.deps.repo.renewalsOverdue(now);
    let failed = 0;
    for (const { accountId, due } of plans) {
      if (await this.deps.lifecycle.applyIfDue(accountId, { type: 'RENEWAL_FAILED', now, dueAt: due })) failed++;
    }
    return failed;
  }
}
