import type { Database } from '@connect/db';
import type { EventBus } from '../../events/port.ts';
import type { QntPaymentsFace } from '../payment/index.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { formatCount } from './order-format.ts';
import { again, qntPaymentId, type BillingConfig } from './orders.ts';
import { OrdersRepository, type OrderRow } from './orders-repository.ts';
import { fromSnapshot } from './transitions.ts';

/**
 * QNT the chain took back (`qnt.transfer_reversed`, issue 27 §4) leaves the account's QNT below
 * zero when it had already paid orders. Those orders were paid by QNT that no longer exists, so
 * they go back to awaiting payment — newest settlement first, until the balance is back at zero or
 * no QNT-paid order is left (what remains below zero is a debt, taken from the next QNT that
 * arrives). Undoing an order, in the subscriber's transaction:
 *
 * - the QNT it took is given back to the balance (`refund`, `order:<id>:qnt…:undone`);
 * - its `payments` row is removed; the order and its invoice wait for payment (AWAITING_PAYMENT,
 *   OPEN), its QNT payment is NEW again, and the order counts the reversal so that paying it again
 *   takes and buys again under new references;
 * - what it delivered is undone: credits bought are taken back (`reversal`, may go below the
 *   floor: credits already used are owed), and a plan or renewal it paid waits for it again
 *   (PAYMENT_REVERSED, transitions.ts: the plan as it was just before the order's payment,
 *   recorded on the order — a plan order's plan PENDING, in service only if what the customer had
 *   before was; a renewal or a month's bill due again; another order the plan waits for keeps
 *   its place).
 *
 * Answers the orders put back. The customer is told by the QNT notice and the plan's notice.
 */
export async function reopenOrdersPaidByLostQnt(
  tx: Database,
  deps: { events: EventBus; billing: BillingConfig; qnt: QntPaymentsFace },
  accountId: string,
  now = new Date(),
): Promise<string[]> {
  const repo = new OrdersRepository(tx);
  const lifecycle = new PlanLifecycle(tx, deps.events, { paygCreditLimit: deps.billing.paygCreditLimit });
  const reopened: string[] = [];
  for (const payment of await deps.qnt.settledPayments(tx, accountId)) {
    if ((await repo.ledger.balance(accountId, 'QNT')).balance >= 0n) break;
    const order = await repo.lock(payment.orderId);
    if (order?.status !== 'PAID' || payment.paid <= 0n) continue;
    await reopen(repo, lifecycle, tx, order, payment.paid, now);
    await deps.qnt.reopen(tx, order.id);
    reopened.push(order.id);
  }
  return reopened;
}

async function reopen(
  repo: OrdersRepository,
  lifecycle: PlanLifecycle,
  tx: Database,
  order: OrderRow,
  paid: bigint,
  now: Date,
): Promise<void> {
  const why = 'the chain took back the QNT that paid it';
  await repo.ledger.refund(order.accountId, 'QNT', paid, {
    reason: `Order ${order.reference}: its QNT payment undone (${why})`,
    reference: `order:${order.id}:qnt${again(order)}:undone`,
  });
  if (order.credits > 0) {
    await repo.ledger.reverse(order.accountId, 'CREDIT', BigInt(order.credits), {
      reason: `${formatCount(order.credits)} credits of order ${order.reference} taken back (${why})`,
      reference: `order:${order.id}${again(order)}:undone`,
    });
  }
  await repo.reopen(order, { method: 'QNT', externalId: qntPaymentId(order) }, now);
  if (order.kind !== 'CREDITS') {
    await lifecycle.apply(
      order.accountId,
      { type: 'PAYMENT_REVERSED', orderId: order.id, kind: order.kind, before: fromSnapshot(order.planBefore) },
      { tx },
    );
  }
}
