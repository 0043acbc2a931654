/**
 * The account-plan service's public face: what the app, jobs and other services may use.
 * Another service imports from here, never from the service's other files.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { EventBus } from '../../events/port.ts';
import type { Deps } from '../../types.ts';
import { cardPayments, qntPayments, type InvoiceOrders } from '../payment/index.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { availablePaymentMethods, newOrderReference, OrderService } from './orders.ts';
import { OrdersRepository } from './orders-repository.ts';
import { PlanPeriods, type AccountPlanRuntime, type TrialReminderNotices } from './periods.ts';
import { reopenOrdersPaidByLostQnt } from './qnt-reversals.ts';
import { AccountPlanRepository } from './repository.ts';

export { subscribeOrderMails } from './order-mails.ts';
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
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'chains' | 'cards'>,
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
 * paid back to awaiting payment (qnt-reversals.ts). Registered on every node (module.ts).
 */
export function subscribeQntSettlement(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'chains'>,
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

/**
 * The orders as the invoices use them: the port payment declares (payment/invoices/orders-port.ts)
 * and this module fills on every node (deps.runtime.invoiceOrders, module.ts) — paying an invoice
 * in QNT (pay.ts) and the month's close placing its bills (close.ts), whose plans wait for them
 * through the plans' own transition, set-based (PlanLifecycle.applyMany, BILL_PLACED).
 */
export function invoiceOrders(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'chains' | 'cards'>,
  log: FastifyBaseLogger,
): InvoiceOrders {
  const { events, config } = deps;
  const qnt = qntPayments(deps, log);
  const cards = cardPayments(deps, log);
  const orders = (db: Database) => new OrderService(db, events, config.billing, qnt, null, config.invoices);
  const lifecycle = new PlanLifecycle(deps.db, events, { paygCreditLimit: config.billing.paygCreditLimit });
  return {
    order: (accountId, orderId) => orders(deps.db).order(accountId, orderId),
    settleFromHeldQnt: (tx, accountId) => orders(tx).settleFromQnt(tx, accountId),
    payInQnt: (tx, orderId) => new OrdersRepository(tx).payInQnt(orderId),
    paymentMethods: () => availablePaymentMethods(qnt, cards),
    newReference: newOrderReference,
    billMethods: (tx, accountIds, available) => new AccountPlanRepository(tx).billMethods(accountIds, available),
    placeBills: (tx, bills, terms) => new OrdersRepository(tx).placeBills(bills, terms),
    awaitBills: async (tx, bills, now) => {
      await events.emitMany(
        tx,
        'order.placed',
        bills.map((bill) => ({
          accountId: bill.accountId,
          userId: null,
          orderId: bill.orderId,
          reference: bill.reference,
          paymentMethod: bill.paymentMethod,
        })),
      );
      const changes = bills.map((bill) => ({
        accountId: bill.accountId,
        event: { type: 'BILL_PLACED' as const, orderId: bill.orderId },
      }));
      return (await lifecycle.applyMany(tx, changes, now)).length;
    },
  };
}

/** The face the plan-periods job sweeps with (deps.runtime.accountPlan); `notices` tells of trial reminders. */
export function createAccountPlanRuntime(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'chains' | 'cards'>,
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
