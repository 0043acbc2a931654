import type { Database } from '@connect/db';
import {
  formatInvoiceSort,
  INITIAL_INVOICE_SORT,
  invoicePeriod,
  parseInvoiceSort,
  PAYMENT_METHODS,
  REVERSE_CHARGE_LEGEND,
  type TInvoice,
  type TInvoiceKind,
  type TInvoiceListQuery,
  type TInvoicePage,
  type TInvoiceParty,
  type TInvoiceRow,
  type TPaymentMethod,
} from '@connect/shared';
import type { Config } from '../../../config.ts';
import { notFound } from '../../../lib/errors.ts';
import { InvoicesRepository, type InvoiceRow } from './repository.ts';
import { presentReceipt } from '../../../lib/receipts.ts';

export type InvoiceConfig = Pick<Config, 'invoices' | 'billing'>;

/** Who asks: a signed-in user of an account (their invoices are the account's). */
export type InvoiceCaller = { accountId: string };

/** The statuses a customer sees (a draft is never read here). */
type CustomerStatus = TInvoiceRow['status'];

const iso = (value: Date | string) => new Date(value).toISOString();

/** A payment's method as the invoice says it (a method no longer known reads as none). */
const methodOf = (method: string | null): TPaymentMethod | null =>
  (PAYMENT_METHODS as readonly string[]).includes(method ?? '') ? (method as TPaymentMethod) : null;

/** An OPEN invoice past its due date. */
const isOverdue = (invoice: InvoiceRow, now: Date) => invoice.status === 'OPEN' && invoice.dueAt < now;

/** A line's unit price in pounds: the stored decimal string, else its whole pence. */
const unitPriceOf = (line: { unitPrice: string | null; unitPriceMinor: number }) =>
  line.unitPrice ?? (line.unitPriceMinor / 100).toFixed(2);

/**
 * The invoices as their customers read them (spec §3, §7): the list with its sort, and one
 * invoice with everything its page, PDF and CSV show. Drafts are invisible; another account's
 * invoice answers INVOICE_NOT_FOUND, as an unknown id does.
 */
/** The list's Start Date and End Date: the period as shown (a month's by its first and last day). */
function periodOf(row: { kind: TInvoiceKind; periodStart: Date | null; periodEnd: Date | null }) {
  const { start, end } = invoicePeriod(row.kind, row.periodStart, row.periodEnd);
  return { startDate: start, endDate: end };
}

export class InvoiceService {
  readonly repo: InvoicesRepository;

  constructor(
    db: Database,
    private readonly config: InvoiceConfig,
  ) {
    this.repo = new InvoicesRepository(db);
  }

  /** GET /user/invoices: the caller's invoices, one page, sorted as asked (by default invoice number, newest first). */
  async list(caller: InvoiceCaller, query: TInvoiceListQuery, now = new Date()): Promise<TInvoicePage> {
    const sort = parseInvoiceSort(query.sort) ?? INITIAL_INVOICE_SORT!;
    const size = query.size ?? 10;
    const total = await this.repo.count(caller.accountId, query.status);
    const totalPages = Math.ceil(total / size);
    // A page beyond the last is the last (a list that shrank while the customer paged).
    const page = Math.min(query.page ?? 0, Math.max(0, totalPages - 1));
    const rows = await this.repo.page(caller.accountId, { page, size, sort, status: query.status });
    return {
      content: rows.map((row) => ({
        id: row.id,
        invoiceNumber: row.number!,
        kind: row.kind,
        ...periodOf(row),
        subtotal: row.subtotalMinor,
        total: row.totalMinor,
        currency: 'GBP',
        status: row.status as CustomerStatus,
        overdue: isOverdue(row, now),
        credited: row.creditedMinor,
        dueDate: iso(row.dueAt),
        lastUpdatedAt: iso(row.updatedAt),
        orderId: row.orderId,
      })),
      totalElements: total,
      totalPages,
      number: page,
      size,
      sort: formatInvoiceSort(sort),
    };
  }

  /** The caller's invoice row, or 404 INVOICE_NOT_FOUND (another account's, a draft, or none). */
  async row(caller: InvoiceCaller, invoiceId: string): Promise<InvoiceRow> {
    const invoice = await this.repo.find(caller.accountId, invoiceId);
    if (!invoice) throw notFound('INVOICE_NOT_FOUND');
    return invoice;
  }

  /** GET /user/invoice/:id: the invoice as its page, PDF and CSV show it. */
  async invoice(caller: InvoiceCaller, invoiceId: string, now = new Date()): Promise<TInvoice> {
    const invoice = await this.row(caller, invoiceId);
    const [lines, notes, receipt, order, customer] = await Promise.all([
      this.repo.lines(invoice.id),
      this.repo.creditNotes(invoice.id),
      this.repo.receipt(invoice.id),
      invoice.orderId ? this.repo.order(invoice.orderId) : null,
      this.customerOf(invoice),
    ]);
    const received = invoice.orderId
      ? await this.repo.received(invoice.orderId)
      : { amountMinor: invoice.amountPaidMinor, lastAt: invoice.paidAt, method: null };
    const paymentReceived =
      invoice.status === 'PAID' ? Math.max(received.amountMinor, invoice.amountPaidMinor) : received.amountMinor;
    const number = invoice.number!;
    const shown = invoicePeriod(invoice.kind, invoice.periodStart, invoice.periodEnd);
    const period = { periodStart: shown.start, periodEnd: shown.end };
    return {
      id: invoice.id,
      number,
      kind: invoice.kind,
      status: invoice.status as CustomerStatus,
      overdue: isOverdue(invoice, now),
      date: iso(invoice.finalisedAt ?? invoice.issuedAt),
      reference: order?.reference ?? number,
      accountNumber: invoice.accountId,
      dueDate: iso(invoice.dueAt),
      termsDays: invoice.termsDays,
      ...period,
      lastUpdatedAt: iso(invoice.updatedAt),
      customer,
      issuer: this.config.invoices.issuer,
      lines: lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        unitPrice: unitPriceOf(line),
        vatRateBp: line.vatRateBp,
        vat: line.vatMinor,
        amount: line.amountMinor,
      })),
      currency: 'GBP',
      subtotal: invoice.subtotalMinor,
      totalWithoutVat: invoice.subtotalMinor,
      vat: invoice.vatMinor,
      vatTreatment: invoice.vatTreatment,
      vatRateBp: invoice.vatRateBp,
      vatNote: invoice.vatTreatment === 'REVERSE_CHARGE' ? REVERSE_CHARGE_LEGEND : null,
      totalGbp: invoice.totalMinor,
      totalUsd: invoice.totalUsdCents,
      usdPerGbp: invoice.usdPerGbp ?? order?.usdPerGbp ?? this.config.billing.usdPerGbp,
      paymentReceived,
      dateReceived: received.lastAt ? iso(received.lastAt) : invoice.paidAt ? iso(invoice.paidAt) : null,
      paymentMethod: methodOf(received.method),
      // A void invoice asks for nothing; credit notes give back what was paid, they do not reduce the debt.
      amountDue: invoice.status === 'VOID' ? 0 : Math.max(0, invoice.totalMinor - paymentReceived),
      qnt:
        invoice.qntAmountWei !== null && invoice.gbpPerQnt && invoice.qntRateAt
          ? {
              amountWei: invoice.qntAmountWei.toString(),
              gbpPerQnt: invoice.gbpPerQnt,
              rateAt: iso(invoice.qntRateAt),
            }
          : null,
      orderId: invoice.orderId,
      creditNotes: notes.map((note) => ({
        id: note.id,
        number: note.number ?? '',
        amount: note.amountMinor,
        reason: note.reason,
        createdAt: iso(note.issuedAt),
      })),
      receipt: receipt ? presentReceipt(receipt, number) : null,
    };
  }

  /**
   * The customer the invoice names: its snapshot (taken when it was numbered), or for an invoice
   * numbered before snapshots were kept, the account's name and its first member's email.
   */
  private async customerOf(invoice: InvoiceRow): Promise<TInvoiceParty> {
    if (invoice.customer) return invoice.customer;
    const account = await this.repo.accountName(invoice.accountId);
    return {
      companyName: account.name,
      address: [],
      country: null,
      registrationNumber: null,
      vatNumber: null,
      website: null,
      telephone: null,
      email: account.email,
    };
  }
}
