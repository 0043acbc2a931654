/**
 * The account-plan service's public face: what the app, jobs and other services may use.
 * Another service imports from here, never from the service's other files.
 */
import type { Deps } from '../../types.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { availablePaymentMethods, OrderService } from './orders.ts';
import { PlanPeriods, type AccountPlanRuntime, type TrialReminderNotices } from './periods.ts';
import { AccountPlanRepository } from './repository.ts';

export { subscribeOrderMails } from './order-mails.ts';
export type { AccountPlanRuntime, SweepReport, TrialReminderNotices } from './periods.ts';

/** The face the plan-periods job sweeps with (deps.runtime.accountPlan); `notices` tells of trial reminders. */
export function createAccountPlanRuntime(
  deps: Pick<Deps, 'db' | 'events' | 'config'>,
  notices: TrialReminderNotices,
): AccountPlanRuntime {
  const { db, events, config } = deps;
  return new PlanPeriods({
    db,
    events,
    repo: new AccountPlanRepository(db),
    lifecycle: new PlanLifecycle(db, events, { paygCreditLimit: config.billing.paygCreditLimit }),
    orders: new OrderService(db, events, config.billing),
    notices,
    paymentMethods: availablePaymentMethods(config),
  });
}
