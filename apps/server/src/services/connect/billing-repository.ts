import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { billingDetails, invoices, orders, payments, receipts, type Database } from '@connect/db';
import { takeNumber } from '../../repositories/invoice-numbers.ts';

export type BillingDetailsRow = typeof billingDetails.$inferSelect;
export type NewBillingDetails = Omit<typeof billingDetails.$inferInsert, 'accountId' | 'updatedAt'>;
export type ReceiptRow = typeof receipts.$inferSelect;
export type ReceiptInvoice = Pick<
  typeof invoices.$inferSelect,
  'id' | 'accountId' | 'number' | 'status' | 'orderId' | 'amountPaidMinor' | 'totalMinor' | 'paidAt' | 'updatedAt'
>;

/**
 * Billing details and receipts (connect service, issue 18): who an account's invoices are made out
 * to, and the receipts of its paid invoices. Built over the database or a transaction.
 */
export class BillingRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: BillingRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new BillingRepository(db), db);
    });
  }

  async details(accountId: string): Promise<BillingDetailsRow | null> {
    const [row] = await this.db.select().from(billingDetails).where(eq(billingDetails.accountId, accountId));
    return row ?? null;
  }

  /** The account's billing details replaced by `details`, checked now (`vatCheckedAt`). */
  async saveDetails(accountId: string, details: NewBillingDetails): Promise<BillingDetailsRow> {
    const [row] = await this.db
      .insert(billingDetails)
      .values({ ...details, accountId, updatedAt: sql`now()` })
      .onConflictDoUpdate({ target: billingDetails.accountId, set: { ...details, updatedAt: sql`now()` } })
      .returning();
    return row!;
  }

  /** The account's invoice (never a draft), locked until the transaction ends. */
  async lockInvoice(accountId: string, invoiceId: string): Promise<ReceiptInvoice | null> {
    const [row] = await this.db
      .select({
        id: invoices.id,
        accountId: invoices.accountId,
        number: invoices.number,
        status: invoices.status,
        orderId: invoices.orderId,
        amountPaidMinor: invoices.amountPaidMinor,
        totalMinor: invoices.totalMinor,
        paidAt: invoices.paidAt,
        updatedAt: invoices.updatedAt,
      })
      .from(invoices)
      .where(and(eq(invoices.id, invoiceId), eq(invoices.accountId, accountId), ne(invoices.status, 'DRAFT')))
      .for('update');
    return row ?? null;
  }

  async receiptOf(invoiceId: string): Promise<ReceiptRow | null> {
    const [row] = await this.db.select().from(receipts).where(eq(receipts.invoiceId, invoiceId));
    return row ?? null;
  }

  /** How the invoice's order was paid: the method of its last payment, else the order's method. */
  async paymentMethodOf(orderId: string): Promise<string | null> {
    const [payment] = await this.db
      .select({ method: payments.method })
      .from(payments)
      .where(eq(payments.orderId, orderId))
      .orderBy(desc(payments.receivedAt))
      .limit(1);
    if (payment) return payment.method;
    const [order] = await this.db.select({ method: orders.paymentMethod }).from(orders).where(eq(orders.id, orderId));
    return order?.method ?? null;
  }

  /** A receipt with its invoice's number (the receipt's email). */
  async receipt(receiptId: string): Promise<(ReceiptRow & { invoiceNumber: string }) | null> {
    const [row] = await this.db
      .select({ receipt: receipts, invoiceNumber: invoices.number })
      .from(receipts)
      .innerJoin(invoices, eq(invoices.id, receipts.invoiceId))
      .where(eq(receipts.id, receiptId));
    return row ? { ...row.receipt, invoiceNumber: row.invoiceNumber! } : null;
  }

  /** A new receipt, numbered from the RCT counter in this transaction (call it once the receipt is certain). */
  async insertReceipt(receipt: Omit<typeof receipts.$inferInsert, 'number'>): Promise<ReceiptRow> {
    const { number } = await takeNumber(this.db, 'RCT');
    const [row] = await this.db
      .insert(receipts)
      .values({ ...receipt, number })
      .returning();
    return row!;
  }
}
