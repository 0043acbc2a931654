import type { Database } from '@connect/db';
import type { TInvoicePaymentRate, TOrder, TQntPayment } from '@connect/shared';
import { problem } from '../../../lib/errors.ts';
import type { QntPayments } from '../qnt-payments.ts';
import { QntRepository } from '../qnt-repository.ts';
import type { InvoiceOrders } from './orders-port.ts';
import type { InvoiceOrderRow, InvoicesRepository } from './repository.ts';
import type { InvoiceCaller, InvoiceService } from './service.ts';

/** A quote still holding (the view shows one that ran out as EXPIRED already). */
const holds = (qnt: TQntPayment | null | undefined): qnt is TQntPayment =>
  !!qnt && (qnt.status === 'NEW' || qnt.status === 'PROCESSING') && Date.parse(qnt.expiresAt) > Date.now();

/**
 * Paying an invoice in QNT (GET /user/invoice/payment-rate/:id, POST /user/invoice/:id/pay-qnt):
 * the invoice's order is paid in QNT (decision: an order placed for card or bank transfer is
 * switched to QNT when its customer chooses to pay the invoice in QNT — what was received stays
 * recorded, the quote is for what is left) — only when the customer pays (POST …/pay-qnt): the
 * rate (GET) only reads, so a customer who merely looks keeps their card or bank transfer. Paying
 * quotes the order like any QNT order, or again when its quote ran out; the QNT the account holds
 * settles it at once when it is enough, else the wallet sends the rest to the deposit address and
 * the chain follower settles it.
 */
export class InvoicePayments {
  constructor(
    private readonly invoices: InvoiceService,
    private readonly qnt: QntPayments,
    /** The account-plan service's orders (the port it fills, orders-port.ts): presented, switched to QNT and settled there. */
    private readonly orders: InvoiceOrders,
  ) {}

  /**
   * GET /user/invoice/payment-rate/:id: what paying in QNT would take, read only (the customer
   * may only be looking: the order keeps its payment method and nothing is quoted or stored).
   * The order's own quote while it holds; else a preview at the price of now for what is still
   * due, worked out as the quote would be (the same price source and conversion, the same
   * lifetime) — POST …/pay-qnt makes the quote. `order` is the order as it stands.
   */
  async rate(caller: InvoiceCaller, invoiceId: string): Promise<TInvoicePaymentRate> {
    const invoice = await this.invoices.row(caller, invoiceId);
    if (invoice.status !== 'OPEN' || !invoice.orderId) throw problem('INVOICE_NOT_PAYABLE');
    if (!this.qnt.isAvailable) throw problem('QNT_PAYMENTS_UNAVAILABLE');
    const [order, holding] = await Promise.all([
      this.order(caller, invoice.orderId),
      this.qnt.holding(caller.accountId),
    ]);
    // Paid by card or bank transfer (or withdrawn) since the invoice was read: nothing to pay.
    if (order.status !== 'AWAITING_PAYMENT') throw problem('INVOICE_NOT_PAYABLE');
    const amountDue = Math.max(0, order.totalGbpMinor - order.paidGbpMinor);
    const live = order.paymentMethod === 'QNT' && holds(order.qnt) ? order.qnt : null;
    const quote = live ?? (await this.qnt.preview(amountDue));
    return {
      invoiceId: invoice.id,
      invoiceNumber: invoice.number!,
      amountDue,
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
    if (invoice.status === 'PAID') return this.order(caller, invoice.orderId);
    if (invoice.status !== 'OPEN') throw problem('INVOICE_NOT_PAYABLE');
    if (!this.qnt.isAvailable) throw problem('QNT_PAYMENTS_UNAVAILABLE');
    const orderId = invoice.orderId;
    await this.invoices.repo.transaction(async (repo, tx) => {
      const order = await this.quote(repo, tx, orderId);
      if (order.status === 'AWAITING_PAYMENT') await this.orders.settleFromHeldQnt(tx, caller.accountId);
    });
    return this.order(caller, orderId);
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
    if (order.paymentMethod !== 'QNT') await this.orders.payInQnt(tx, order.id);
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

  /**
   * The invoice's order as the order answers show it (the account-plan service's presenter). An
   * order not paid in QNT answers `qnt: null`, as this answer always has.
   */
  private async order(caller: InvoiceCaller, orderId: string): Promise<TOrder> {
    const order = (await this.orders.order(caller.accountId, orderId))!;
    return { ...order, qnt: order.qnt ?? null };
  }
}
