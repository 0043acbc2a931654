import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { TInvoicePaymentRate, TOrder } from '@connect/shared';
import type { DomainEvent } from '../../../events/catalogue.ts';
import type { EventBus, EventHandler } from '../../../events/port.ts';
import { problem } from '../../../lib/errors.ts';
import type { Deps } from '../../../types.ts';
import { subscribeQntSettlement } from '../../account-plan/index.ts';
import type { QntPayments } from '../qnt-payments.ts';
import { QntRepository } from '../qnt-repository.ts';
import type { InvoiceOrderRow, InvoicesRepository } from './repository.ts';
import type { InvoiceCaller, InvoiceConfig, InvoiceService } from './service.ts';

/** Settles the account's open QNT orders from the QNT it holds, oldest first, in `tx` (the account-plan service's rule). */
export type HeldQntSettlement = (tx: Database, accountId: string) => Promise<void>;

/**
 * The account-plan service's settlement of open QNT orders from the held balance
 * (OrderService.settleFromQnt): its public face offers it as the handler it subscribes to
 * `qnt.transfer_confirmed` (subscribeQntSettlement), so the handler is taken from a bus that keeps
 * it and called with the account. Everything it emits goes to the app's bus, in `tx`: paying an
 * invoice from held QNT is the same settlement, with the same events, as a transfer arriving.
 */
export function heldQntSettlement(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box'>,
  log: FastifyBaseLogger,
): HeldQntSettlement {
  let handler: EventHandler<'qnt.transfer_confirmed'> | undefined;
  const events = deps.events;
  const keeper: EventBus = {
    emit: (db, type, payload) => events.emit(db, type, payload),
    emitMany: (db, type, payloads) => events.emitMany(db, type, payloads),
    subscribe: (_name, type, kept) => {
      if (type === 'qnt.transfer_confirmed') handler = kept as unknown as EventHandler<'qnt.transfer_confirmed'>;
    },
    subscribeEffect: () => undefined,
    drain: () => events.drain(),
    prune: (days) => events.prune(days),
  };
  subscribeQntSettlement(deps, keeper, log);
  if (!handler) throw new Error('The account-plan service registered no QNT settlement');
  const settle = handler;
  return (tx, accountId) =>
    settle(
      {
        id: `invoice-payment:${accountId}`,
        type: 'qnt.transfer_confirmed',
        accountId,
        occurredAt: new Date(),
        // The settlement reads the account only: it walks the account's open QNT orders.
        payload: { accountId } as DomainEvent<'qnt.transfer_confirmed'>['payload'],
      },
      tx,
    );
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * Paying an invoice in QNT (GET /user/invoice/payment-rate/:id, POST /user/invoice/:id/pay-qnt):
 * the invoice's order is paid in QNT (decision: an order placed for card or bank transfer is
 * switched to QNT when its customer chooses to pay the invoice in QNT — what was received stays
 * recorded, the quote is for what is left), quoted like any QNT order, or quoted again when its
 * quote ran out; the QNT the account holds settles it at once when it is enough, else the wallet
 * sends the rest to the deposit address and the chain follower settles it.
 */
export class InvoicePayments {
  constructor(
    private readonly invoices: InvoiceService,
    private readonly qnt: QntPayments,
    private readonly settle: HeldQntSettlement,
    private readonly config: InvoiceConfig,
  ) {}

  /** GET /user/invoice/payment-rate/:id: the quote for what is due (made or renewed now) and the QNT held. */
  async rate(caller: InvoiceCaller, invoiceId: string): Promise<TInvoicePaymentRate> {
    const invoice = await this.invoices.row(caller, invoiceId);
    if (invoice.status !== 'OPEN' || !invoice.orderId) throw problem('INVOICE_NOT_PAYABLE');
    if (!this.qnt.isAvailable) throw problem('QNT_PAYMENTS_UNAVAILABLE');
    const orderId = invoice.orderId;
    await this.invoices.repo.transaction((repo, tx) => this.quote(repo, tx, orderId));
    const [order, holding] = await Promise.all([this.order(orderId, invoice.id), this.qnt.holding(caller.accountId)]);
    const quote = order.qnt!;
    return {
      invoiceId: invoice.id,
      invoiceNumber: invoice.number!,
      amountDue: Math.max(0, order.totalGbpMinor - order.paidGbpMinor),
      qntPaymentAmount: quote.amountDue,
      gbpPerQnt: quote.gbpPerQnt,
      rateAt: quote.rateAt,
      expiresAt: quote.expiresAt,
      heldQnt: holding.held,
      order,
    };
  }

  /**
   * POST /user/invoice/:id/pay-qnt: the order settled now from the QNT held when it covers what is
   * due; else the order with its quote (the deposit address) for the wallet's transfer. A paid
   * invoice answers its paid order (a second call changes nothing).
   */
  async pay(caller: InvoiceCaller, invoiceId: string): Promise<TOrder> {
    const invoice = await this.invoices.row(caller, invoiceId);
    if (!invoice.orderId) throw problem('INVOICE_NOT_PAYABLE');
    if (invoice.status === 'PAID') return this.order(invoice.orderId, invoice.id);
    if (invoice.status !== 'OPEN') throw problem('INVOICE_NOT_PAYABLE');
    if (!this.qnt.isAvailable) throw problem('QNT_PAYMENTS_UNAVAILABLE');
    const orderId = invoice.orderId;
    await this.invoices.repo.transaction(async (repo, tx) => {
      const order = await this.quote(repo, tx, orderId);
      if (order.status === 'AWAITING_PAYMENT') await this.settle(tx, caller.accountId);
    });
    return this.order(orderId, invoice.id);
  }

  /**
   * In `tx`, with the order locked: the order waits for QNT with a quote that holds (made, or
   * made again at today's price). Answers the order as it stood (a paid one is left alone).
   */
  private async quote(repo: InvoicesRepository, tx: Database, orderId: string): Promise<InvoiceOrderRow> {
    const order = (await repo.order(orderId, { lock: true }))!;
    if (order.status === 'PAID') return order;
    if (order.status !== 'AWAITING_PAYMENT') throw problem('INVOICE_NOT_PAYABLE');
    const due = Math.max(0, order.totalGbpMinor - order.paidGbpMinor);
    if (order.paymentMethod !== 'QNT') await repo.payOrderInQnt(order.id);
    const payment = await new QntRepository(tx).payment(order.id);
    const isLive = payment && (payment.status === 'NEW' || payment.status === 'PROCESSING');
    if (!payment) {
      await this.qnt.quote(tx, { id: order.id, accountId: order.accountId, totalGbpMinor: due });
    } else if (!isLive || payment.expiresAt.getTime() <= Date.now()) {
      await this.qnt.requote(tx, payment, due);
      if (payment.status !== 'NEW' && payment.status !== 'PROCESSING') {
        await new QntRepository(tx).update(order.id, { status: 'NEW', reason: null });
      }
    }
    return order;
  }

  /** The order as the order answers show it (ZOrder), with its QNT payment. */
  private async order(orderId: string, invoiceId: string): Promise<TOrder> {
    const row = (await this.invoices.repo.order(orderId))!;
    const isAwaitingTransfer = row.status === 'AWAITING_PAYMENT' && row.paymentMethod === 'BANK_TRANSFER';
    return {
      id: row.id,
      reference: row.reference,
      kind: row.kind,
      status: row.status,
      paymentMethod: row.paymentMethod,
      ratePlan: row.ratePlanId && row.ratePlanName ? { id: row.ratePlanId, name: row.ratePlanName } : null,
      upfrontMonths: row.upfrontMonths,
      bundle: row.creditBundleId
        ? { id: row.creditBundleId, credits: row.credits, priceUsdCents: row.bundleUsdCents }
        : null,
      feeGbpMinor: row.feeGbpMinor,
      bundleUsdCents: row.bundleUsdCents,
      usdPerGbp: row.usdPerGbp,
      rateAt: iso(row.rateAt),
      totalGbpMinor: row.totalGbpMinor,
      paidGbpMinor: row.paidGbpMinor,
      periodStart: row.periodStart ? iso(row.periodStart) : null,
      periodEnd: row.periodEnd ? iso(row.periodEnd) : null,
      dueAt: iso(row.dueAt),
      createdAt: iso(row.createdAt),
      paidAt: row.paidAt ? iso(row.paidAt) : null,
      invoiceId,
      bankTransfer: isAwaitingTransfer
        ? {
            ...this.config.billing.bank,
            reference: row.reference,
            amountGbpMinor: Math.max(0, row.totalGbpMinor - row.paidGbpMinor),
            dueAt: iso(row.dueAt),
          }
        : null,
      qnt: row.paymentMethod === 'QNT' ? await this.qnt.view(row.id) : null,
    };
  }
}
