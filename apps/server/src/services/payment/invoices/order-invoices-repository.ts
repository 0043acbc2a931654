import { and, eq, sql } from 'drizzle-orm';
import { invoiceLines, invoices, payments, type Database, type orders } from '@connect/db';
import { INVOICE_SERIES, splitVat } from '@connect/shared';
import { takeNumber } from '../../../repositories/invoice-numbers.ts';
import type { InvoiceTerms } from '../../../repositories/invoice-customers.ts';

/** An order as its invoice is made from it. */
type OrderRow = typeof orders.$inferSelect;

/** A line as the order prices it: `amountMinor` is what the customer pays for it (VAT inside, decision 1). */
export type OrderInvoiceLine = { description: string; quantity: number; unitPriceMinor: number; amountMinor: number };

/**
 * The invoice of each order (kind ORDER), written as its order moves — placed, paid, reopened,
 * withdrawn — in the order's transaction. The payment service owns `invoices` and `invoice_lines`
 * (src/table-owners.ts); the account-plan service's orders write them only through this, the
 * face payment offers them (index.ts `orderInvoices`).
 */
export class OrderInvoicesRepository {
  constructor(private readonly db: Database) {}

  /**
   * The order's invoice (OPEN, or PAID when nothing is to pay) and its lines, numbered from the
   * INV counter. Call it as late as the placement allows: the counter's row stays locked until
   * the transaction ends, for every order and the month's close (issue 18).
   * `terms`: the customer snapshot and VAT (repositories/invoice-customers.ts). Prices include VAT
   * (docs/decisions/usage-and-invoices.md, "Invoices (issue 18)" 1): each line shows its VAT extracted, the invoice
   * its net subtotal, VAT and the order's total, which VAT never changes. The US-dollar total is
   * the order's own: the bundle's cents as priced, plus the fee's pence converted (not the
   * rounded pence total converted back).
   */
  async issue(row: OrderRow, lines: OrderInvoiceLine[], terms: InvoiceTerms): Promise<void> {
    const isPaid = row.status === 'PAID';
    const taxed = lines.map((line) => ({ line, ...splitVat(line.amountMinor, terms.vatRateBp) }));
    const vatMinor = taxed.reduce((sum, { vatMinor: vat }) => sum + vat, 0);
    // Numbered at once: the order's invoice is the payment request the customer is sent.
    const { seq, number } = await takeNumber(this.db, INVOICE_SERIES.invoice);
    const [invoice] = await this.db
      .insert(invoices)
      .values({
        accountId: row.accountId,
        orderId: row.id,
        kind: 'ORDER',
        number,
        numberSeq: seq,
        finalisedAt: row.createdAt,
        updatedAt: row.paidAt ?? row.createdAt,
        termsDays: Math.max(0, Math.round((row.dueAt.getTime() - row.createdAt.getTime()) / 86_400_000)),
        usdPerGbp: row.usdPerGbp,
        totalUsdCents: row.bundleUsdCents + Math.round(row.feeGbpMinor * Number(row.usdPerGbp)),
        customer: terms.customer,
        vatTreatment: terms.vatTreatment,
        vatRateBp: terms.vatRateBp,
        status: isPaid ? 'PAID' : 'OPEN',
        subtotalMinor: row.totalGbpMinor - vatMinor,
        vatMinor,
        totalMinor: row.totalGbpMinor,
        amountPaidMinor: isPaid ? row.totalGbpMinor : 0,
        periodStart: row.periodStart,
        periodEnd: row.periodEnd,
        issuedAt: row.createdAt,
        dueAt: row.dueAt,
        paidAt: row.paidAt,
      })
      .returning({ id: invoices.id });
    await this.db.insert(invoiceLines).values(
      taxed.map(({ line, netMinor, vatMinor: vat }, index) => ({
        ...line,
        // Without VAT, like the amount (quantity × unit price = amount).
        unitPriceMinor: line.quantity > 1 ? Math.round(netMinor / line.quantity) : netMinor,
        amountMinor: netMinor,
        vatMinor: vat,
        vatRateBp: terms.vatRateBp,
        invoiceId: invoice!.id,
        position: index + 1,
      })),
    );
  }

  /**
   * The order's invoice paid: `amountPaid` received by `paidAt`; the plan's period as it turned
   * out (a new plan's starts at its payment), with the fee line's words for that period.
   */
  async markPaid(
    orderId: string,
    paid: { amountPaid: number; paidAt: Date; periodStart: Date | null; periodEnd: Date | null; feeLine?: string },
  ): Promise<void> {
    const [invoice] = await this.db
      .update(invoices)
      .set({
        status: 'PAID',
        amountPaidMinor: paid.amountPaid,
        paidAt: paid.paidAt,
        updatedAt: paid.paidAt,
        periodStart: paid.periodStart,
        periodEnd: paid.periodEnd,
      })
      .where(eq(invoices.orderId, orderId))
      .returning({ id: invoices.id });
    if (paid.feeLine) {
      await this.db
        .update(invoiceLines)
        .set({ description: paid.feeLine })
        .where(and(eq(invoiceLines.invoiceId, invoice!.id), eq(invoiceLines.position, 1)));
    }
  }

  /** The order's invoice waits for payment again, with what the order's remaining payments cover (a payment taken back). */
  async reopen(orderId: string, at: Date): Promise<void> {
    await this.db
      .update(invoices)
      .set({
        status: 'OPEN',
        paidAt: null,
        updatedAt: at,
        amountPaidMinor: sql`(select coalesce(sum(${payments.amountGbpMinor}), 0)::int from ${payments} where ${payments.orderId} = ${orderId})`,
      })
      .where(eq(invoices.orderId, orderId));
  }

  /** The invoice of a withdrawn order is void. */
  async void(orderId: string, at: Date): Promise<void> {
    await this.db.update(invoices).set({ status: 'VOID', updatedAt: at }).where(eq(invoices.orderId, orderId));
  }
}
