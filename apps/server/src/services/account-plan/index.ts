/**
 * The account-plan service's public face: what the app, jobs and other services may use.
 * Another service imports from here, never from the service's other files.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { TOrder } from '@connect/shared';
import type { EventBus } from '../../events/port.ts';
import type { Deps } from '../../types.ts';
import { cardPayments, qntPayments } from '../payment/index.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { availablePaymentMethods, OrderService } from './orders.ts';
import { PlanPeriods, type AccountPlanRuntime, type TrialReminderNotices } from './periods.ts';
import { reopenOrdersPaidByLostQnt } from './qnt-reversals.ts';
import { AccountPlanRepository } from './repository.ts';

export { subscribeOrderMails } from './order-mails.ts';
/** The month's close (payment/invoices/close.ts) places USAGE orders set-based: their references and methods. */
export { availablePaymentMethods, newOrderReference } from './orders.ts';
export type { AccountPlanRuntime, SweepReport, TrialReminderNotices } from './periods.ts';

/** The subscriber's name (deliveries are recorded under it): never renamed. */
const QNT_SETTLEMENT = 'account-plan.qnt-settlement';

/** The subscriber's name (deliveries are recorded under it): never renamed. */
const CARD_SETTLEMENT = 'account-plan.card-settlement';

/** The subscriber's name (deliveries are recorded under it): never renamed. */
const QNT_REVERSAL = 'account-plan.qnt-reversal';

/**
 * A card payment that succeeded settles its order (OrderService.settleFromCard), exactly once per
 * event, in the transaction that records the delivery. A payment the order can no longer take
 * (withdrawn meanwhile, or paid by another intent) is announced as `card.refund_due`: the payment
 * service refunds it after the commit (never a provider call inside a transaction).
 */
export function subscribeCardSettlement(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'cards'>,
  events: EventBus,
  log: FastifyBaseLogger,
): void {
  const qnt = qntPayments(deps, log);
  const cards = cardPayments(deps, log);
  events.subscribe(CARD_SETTLEMENT, 'card.payment_succeeded', async (event, tx) => {
    const orders = new OrderService(tx, events, deps.config.billing, qnt, cards, deps.config.invoices);
    if (!(await orders.settleFromCard(tx, event.payload))) await events.emit(tx, 'card.refund_due', event.payload);
  });
}

/**
 * QNT credited to an account settles its open QNT orders (OrderService.settleFromQnt), exactly
 * once per event, in the transaction that records the delivery; QNT taken back puts the orders it
 * paid back to awaiting payment (qnt-reversals.ts). Registered on every node (app.ts).
 */
export function subscribeQntSettlement(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box'>,
  events: EventBus,
  log: FastifyBaseLogger,
): void {
  const qnt = qntPayments(deps, log);
  events.subscribe(QNT_SETTLEMENT, 'qnt.transfer_confirmed', async (event, tx) => {
    const orders = new OrderService(tx, events, deps.config.billing, qnt, null, deps.config.invoices);
    await orders.settleFromQnt(tx, event.payload.accountId);
  });
  // QNT the chain took back (issue 27 §4): the orders it paid wait for their payment again.
  events.subscribe(QNT_REVERSAL, 'qnt.transfer_reversed', async (event, tx) => {
    await reopenOrdersPaidByLostQnt(tx, { events, billing: deps.config.billing, qnt }, event.payload.accountId);
  });
}

/** What paying an invoice in QNT (payment/invoices/pay.ts) uses of the orders. */
export type InvoiceOrders = {
  /** The account's order as the order answers show it (POST /order/track), or null when it is not the account's. */
  order(accountId: string, orderId: string): Promise<TOrder | null>;
  /**
   * In `tx`: the QNT the account holds settles its open QNT orders, oldest first
   * (OrderService.settleFromQnt) — the same settlement, with the same events on the app's bus,
   * as a transfer arriving (subscribeQntSettlement).
   */
  settleFromHeldQnt(tx: Database, accountId: string): Promise<void>;
};

/** The orders as paying an invoice in QNT uses them (InvoiceOrders). */
export function invoiceOrders(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box'>,
  log: FastifyBaseLogger,
): InvoiceOrders {
  const qnt = qntPayments(deps, log);
  const orders = (db: Database) =>
    new OrderService(db, deps.events, deps.config.billing, qnt, null, deps.config.invoices);
  return {
    order: (accountId, orderId) => orders(deps.db).order(accountId, orderId),
    settleFromHeldQnt: (tx, accountId) => orders(tx).settleFromQnt(tx, accountId),
  };
}

/** The face the plan-periods job sweeps with (deps.runtime.accountPlan); `notices` tells of trial reminders. */
export function createAccountPlanRuntime(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'cards'>,
  notices: TrialReminderNotices,
  log: FastifyBaseLogger,
): AccountPlanRuntime {
  const { db, events, config } = deps;
  const qnt = qntPayments(deps, log);
  const cards = cardPayments(deps, log);
  return new PlanPeriods({
    db,
    events,
    repo: new AccountPlanRepository(db),
    lifecycle: new PlanLifecycle(db, events, { paygCreditLimit: config.billing.paygCreditLimit }),
    orders: new OrderService(db, events, config.billing, qnt, cards, config.invoices),
    notices,
    paymentMethods: availablePaymentMethods(qnt, cards),
  });
}
