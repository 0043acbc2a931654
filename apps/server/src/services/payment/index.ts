/**
 * The payment service's public face: what the app, jobs and other services may use. Another
 * service imports from here, never from the service's other files.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import { createPriceSource } from '../../adapters/prices/create.ts';
import type { Deps } from '../../types.ts';
import { CardPayments } from './card-payments.ts';
import { OrderInvoicesRepository } from './invoices/order-invoices-repository.ts';
import { QntPayments } from './qnt-payments.ts';

export { subscribeCardPayments } from './card-subscribers.ts';
export type { InvoiceOrders, MonthBill, MonthBillTerms } from './invoices/orders-port.ts';
export type { OrderInvoiceLine } from './invoices/order-invoices-repository.ts';

/**
 * The invoices of the account-plan service's orders (payment owns `invoices`): issued, paid,
 * reopened and voided as the order moves, over `db` — the order's transaction, so the two commit
 * together.
 */
export type OrderInvoices = Pick<OrderInvoicesRepository, 'issue' | 'markPaid' | 'reopen' | 'void'>;

/** The order invoices' face over a database or the order's transaction. */
export function orderInvoices(db: Database): OrderInvoices {
  return new OrderInvoicesRepository(db);
}

export { QNT_FOLLOWER, qntNetworkOf, type QntNetwork } from './qnt-payments.ts';
export type { QntPaymentRow } from './qnt-repository.ts';

/** What the account-plan service uses to take orders in QNT and settle them from the held balance. */
export type QntPaymentsFace = Pick<
  QntPayments,
  | 'isAvailable'
  | 'quote'
  | 'requote'
  | 'enough'
  | 'openPayments'
  | 'markSettled'
  | 'markPartial'
  | 'invalidate'
  | 'view'
  | 'holding'
  | 'settledPayments'
  | 'reopen'
>;

const instances = new WeakMap<object, QntPayments>();

/** The app's one QNT payments (per Deps: every caller shares its deposit keys and price source). */
export function qntPayments(
  deps: Pick<Deps, 'db' | 'config' | 'box' | 'events' | 'chains'>,
  log: FastifyBaseLogger,
): QntPayments {
  let qnt = instances.get(deps);
  if (!qnt) {
    qnt = new QntPayments({
      db: deps.db,
      config: deps.config,
      recordedToken: deps.chains.qntToken,
      box: deps.box,
      events: deps.events,
      prices: createPriceSource(deps.config),
      log,
    });
    instances.set(deps, qnt);
  }
  return qnt;
}

/** What the account-plan service uses of card payments: whether cards are taken. */
export type CardPaymentsFace = Pick<CardPayments, 'isAvailable'>;

const cardInstances = new WeakMap<object, CardPayments>();

/** The app's one card payments (per Deps). */
export function cardPayments(deps: Pick<Deps, 'db' | 'events' | 'cards'>, log: FastifyBaseLogger): CardPayments {
  let cards = cardInstances.get(deps);
  if (!cards) {
    cards = new CardPayments({ db: deps.db, events: deps.events, gateway: deps.cards, log });
    cardInstances.set(deps, cards);
  }
  return cards;
}
