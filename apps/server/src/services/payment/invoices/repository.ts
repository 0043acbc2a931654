import { and, asc, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  accounts,
  creditNotes,
  invoiceLines,
  invoices,
  orders,
  payments,
  ratePlans,
  receipts,
  users,
  type Database,
} from '@connect/db';
import type { TInvoiceSortField } from '@connect/shared';
import { LedgerRepository } from '../../../repositories/ledger.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type CreditNoteRow = typeof creditNotes.$inferSelect;
export type ReceiptRow = typeof receipts.$inferSelect;
export type InvoiceOrderRow = typeof orders.$inferSelect & { ratePlanName: string | null; paidGbpMinor: number };

/** A row of the list: the invoice and what credit notes gave back against it. */
export type InvoiceListRow = InvoiceRow & { creditedMinor: number };

/** The columns the list sorts by (spec §3 table; the sort's whitelist). */
const SORT_COLUMNS: Record<TInvoiceSortField, SQL> = {
  invoiceNumber: sql`${invoices.numberSeq}`,
  startDate: sql`${invoices.periodStart}`,
  endDate: sql`${invoices.periodEnd}`,
  subtotal: sql`${invoices.subtotalMinor}`,
  status: sql`${invoices.status}`,
};

const credited = sql<number>`coalesce((select sum(${creditNotes.amountMinor}) from ${creditNotes} where ${creditNotes.invoiceId} = ${invoices.id}), 0)::int`;

/** What customers see: numbered invoices (a draft is the close's, during its grace window). */
const visible = (accountId: string) => and(eq(invoices.accountId, accountId), ne(invoices.status, 'DRAFT'));
const listed = (accountId: string, status?: CustomerStatus) =>
  and(visible(accountId), status ? eq(invoices.status, status) : undefined);

type CustomerStatus = 'OPEN' | 'PAID' | 'VOID';

/**
 * The invoices' reads for their customers (services/payment/invoices): the list, one invoice with
 * its lines, order, payments, credit notes and receipt, and the account's name and QNT for the
 * documents and the QNT payment. Every read is by the caller's account: another account's invoice
 * is never found.
 */
export class InvoicesRepository {
  readonly ledger: LedgerRepository;

  constructor(private readonly db: Database) {
    this.ledger = new LedgerRepository(db);
  }

  transaction<T>(work: (repo: InvoicesRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new InvoicesRepository(db), db);
    });
  }

  /** How many invoices the account's list has (with `status`, of that status). */
  async count(accountId: string, status?: CustomerStatus): Promise<number> {
    const [row] = await this.db.select({ total: count() }).from(invoices).where(listed(accountId, status));
    return Number(row?.total ?? 0);
  }

  /** One page of the account's invoices, sorted by `sort` (nulls last, ties by id). */
  async page(
    accountId: string,
    query: {
      page: number;
      size: number;
      sort: { field: TInvoiceSortField; direction: 'asc' | 'desc' };
      status?: CustomerStatus | undefined;
    },
  ): Promise<InvoiceListRow[]> {
    const column = SORT_COLUMNS[query.sort.field];
    const order = query.sort.direction === 'asc' ? sql`${column} asc nulls last` : sql`${column} desc nulls last`;
    const rows = await this.db
      .select({ invoice: invoices, creditedMinor: credited })
      .from(invoices)
      .where(listed(accountId, query.status))
      .orderBy(order, asc(invoices.id))
      .limit(query.size)
      .offset(query.page * query.size);
    return rows.map((row) => ({ ...row.invoice, creditedMinor: Number(row.creditedMinor) }));
  }

  /** The account's invoice (never a draft), or null. */
  async find(accountId: string, invoiceId: string): Promise<InvoiceRow | null> {
    const [row] = await this.db
      .select()
      .from(invoices)
      .where(and(visible(accountId), eq(invoices.id, invoiceId)));
    return row ?? null;
  }

  lines(invoiceId: string): Promise<InvoiceLineRow[]> {
    return this.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(asc(invoiceLines.position));
  }

  creditNotes(invoiceId: string): Promise<CreditNoteRow[]> {
    return this.db
      .select()
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoiceId))
      .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.id));
  }

  async receipt(invoiceId: string): Promise<ReceiptRow | null> {
    const [row] = await this.db.select().from(receipts).where(eq(receipts.invoiceId, invoiceId));
    return row ?? null;
  }

  /** The invoice's order with its plan's name and what was received for it; locked when `lock`. */
  async order(orderId: string, options: { lock?: boolean } = {}): Promise<InvoiceOrderRow | null> {
    if (options.lock) await this.db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
    const [row] = await this.db
      .select({
        order: orders,
        ratePlanName: ratePlans.name,
        paidGbpMinor: sql<number>`coalesce((select sum(${payments.amountGbpMinor}) from ${payments} where ${payments.orderId} = ${orders.id}), 0)::int`,
      })
      .from(orders)
      .leftJoin(ratePlans, eq(ratePlans.id, orders.ratePlanId))
      .where(eq(orders.id, orderId));
    return row ? { ...row.order, ratePlanName: row.ratePlanName, paidGbpMinor: Number(row.paidGbpMinor) } : null;
  }

  /** What was received for an order and when the last part arrived (the invoice's "date received"). */
  async received(orderId: string): Promise<{ amountMinor: number; lastAt: Date | null; method: string | null }> {
    const rows = await this.db
      .select({ amount: payments.amountGbpMinor, at: payments.receivedAt, method: payments.method })
      .from(payments)
      .where(eq(payments.orderId, orderId))
      .orderBy(desc(payments.receivedAt), asc(payments.id));
    return {
      amountMinor: rows.reduce((sum, row) => sum + row.amount, 0),
      lastAt: rows[0]?.at ?? null,
      method: rows[0]?.method ?? null,
    };
  }

  /**
   * The invoice of an order settled in QNT keeps what it was paid with: the QNT amount, rate and
   * rate's time of the order's stored quote (the one it was settled at, made again when it ran
   * out), in the settlement's transaction. A month's invoice had its amount from the close; the
   * payment's quote replaces it, as it is what was paid.
   */
  async recordQntPayment(
    orderId: string,
    quote: { amountDue: bigint; gbpPerQnt: string; rateAt: Date },
  ): Promise<void> {
    await this.db
      .update(invoices)
      .set({ qntAmountWei: quote.amountDue, gbpPerQnt: quote.gbpPerQnt, qntRateAt: quote.rateAt })
      .where(eq(invoices.orderId, orderId));
  }

  /** The account's name for an invoice numbered before customers were kept with it: the organisation, else its first member. */
  async accountName(accountId: string): Promise<{ name: string; email: string | null }> {
    const [account] = await this.db
      .select({ organisationName: accounts.organisationName })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    const [owner] = await this.db
      .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(eq(users.accountId, accountId))
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(1);
    const ownerName = [owner?.firstName, owner?.lastName].filter(Boolean).join(' ');
    return {
      name: account?.organisationName?.trim() || ownerName || owner?.email || 'Customer',
      email: owner?.email ?? null,
    };
  }
}
