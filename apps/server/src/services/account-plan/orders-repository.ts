import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  creditBundles,
  invoiceLines,
  invoices,
  orders,
  payments,
  ratePlans,
  type Database,
  type OrderStatus,
  type PaymentMethod,
  type PlanTerms,
} from '@connect/db';
import { accountRecipients } from '../../repositories/account-recipients.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import type { InvoiceTerms } from '../../repositories/invoice-customers.ts';
import { orderInvoices, type MonthBill, type MonthBillTerms, type OrderInvoices } from '../payment/index.ts';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type RatePlanRow = typeof ratePlans.$inferSelect;
export type CreditBundleRow = typeof creditBundles.$inferSelect;
/** A line as the order prices it: `amountMinor` is what the customer pays for it (VAT inside, decision 1). */
export type InvoiceLine = { description: string; quantity: number; unitPriceMinor: number; amountMinor: number };

/** An order with what its answer shows: the plan's name, its invoice and what was received. */
export type OrderView = OrderRow & { ratePlanName: string | null; invoiceId: string; paidGbpMinor: number };

/** Who is mailed about an order: the user who placed it, or every active member of the account. */
export type OrderRecipient = { id: string; email: string };

const paidSum = sql<number>`coalesce((select sum(${payments.amountGbpMinor}) from ${payments} where ${payments.orderId} = ${orders.id}), 0)::int`;

/**
 * The only code that writes orders and payments (services/account-plan, orders.ts); their
 * invoices are the payment service's, written through its face (OrderInvoices) in the same
 * transaction. Built over the database or a transaction; `transaction` gives one over a new one.
 */
export class OrdersRepository {
  /** The account ledger over the same database or transaction (credits bought by an order). */
  readonly ledger: LedgerRepository;

  /** The invoices of orders, the payment service's (it owns them), over the same database or transaction. */
  private readonly invoices: OrderInvoices;

  constructor(readonly db: Database) {
    this.ledger = new LedgerRepository(db);
    this.invoices = orderInvoices(db);
  }

  /** Runs `work` in one transaction, with a repository over it and the transaction itself. */
  transaction<T>(work: (repo: OrdersRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new OrdersRepository(db), db);
    });
  }

  /** A plan of the catalogue, on sale or not. */
  async ratePlan(id: string): Promise<RatePlanRow | null> {
    const [row] = await this.db.select().from(ratePlans).where(eq(ratePlans.id, id));
    return row ?? null;
  }

  async creditBundle(id: string): Promise<CreditBundleRow | null> {
    const [row] = await this.db.select().from(creditBundles).where(eq(creditBundles.id, id));
    return row ?? null;
  }

  /** Whether a plan sells any credit bundle. */
  async sellsBundles(ratePlanId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: creditBundles.id })
      .from(creditBundles)
      .where(eq(creditBundles.ratePlanId, ratePlanId))
      .limit(1);
    return Boolean(row);
  }

  /** The account's order placed with `idempotencyKey`, or null. */
  async findByKey(accountId: string, idempotencyKey: string): Promise<OrderRow | null> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, accountId), eq(orders.idempotencyKey, idempotencyKey)));
    return row ?? null;
  }

  /**
   * Inserts an order (its invoice comes with `issueInvoice`, at the end of the placement).
   * Answers null, writing nothing, when the account has an order with that key already.
   */
  async insert(order: NewOrder): Promise<OrderRow | null> {
    const [row] = await this.db
      .insert(orders)
      .values(order)
      .onConflictDoNothing({ target: [orders.accountId, orders.idempotencyKey] })
      .returning();
    return row ?? null;
  }

  /**
   * The order's invoice (OPEN, or PAID when nothing is to pay) and its lines, numbered from the
   * INV counter: written by the payment service, which owns invoices (OrderInvoices.issue, in this
   * transaction). Call it as late as the placement allows: the counter's row stays locked until
   * the transaction ends, for every order and the month's close (issue 18).
   */
  async issueInvoice(row: OrderRow, lines: InvoiceLine[], terms: InvoiceTerms): Promise<void> {
    await this.invoices.issue(row, lines, terms);
  }

  /** The order, locked until the transaction ends (call it inside one). */
  async lock(orderId: string): Promise<OrderRow | null> {
    const [row] = await this.db.select().from(orders).where(eq(orders.id, orderId)).for('update');
    return row ?? null;
  }

  /** The account's oldest month's bill (USAGE order) still awaiting payment, other than `exceptId`. */
  async oldestUnpaidBill(accountId: string, exceptId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.accountId, accountId),
          eq(orders.kind, 'USAGE'),
          eq(orders.status, 'AWAITING_PAYMENT'),
          sql`${orders.id} <> ${exceptId}`,
        ),
      )
      .orderBy(asc(orders.createdAt))
      .limit(1);
    return row?.id ?? null;
  }

  /** An order as its answer shows it; only the account's own when `accountId` is given. */
  async view(orderId: string, accountId?: string): Promise<OrderView | null> {
    const [row] = await this.views(
      accountId ? and(eq(orders.id, orderId), eq(orders.accountId, accountId)) : eq(orders.id, orderId),
    );
    return row ?? null;
  }

  /** Orders newest first, by account, status and the reference a transfer quoted. */
  list(filter: { status?: OrderStatus; reference?: string; accountId?: string }, limit: number): Promise<OrderView[]> {
    return this.views(
      and(
        filter.accountId ? eq(orders.accountId, filter.accountId) : undefined,
        filter.status ? eq(orders.status, filter.status) : undefined,
        filter.reference ? eq(orders.reference, filter.reference) : undefined,
      ),
      limit,
    );
  }

  private async views(where: ReturnType<typeof and>, limit = 1): Promise<OrderView[]> {
    const rows = await this.db
      .select({ order: orders, ratePlanName: ratePlans.name, invoiceId: invoices.id, paidGbpMinor: paidSum })
      .from(orders)
      .innerJoin(invoices, eq(invoices.orderId, orders.id))
      .leftJoin(ratePlans, eq(ratePlans.id, orders.ratePlanId))
      .where(where)
      .orderBy(desc(orders.createdAt), asc(orders.id))
      .limit(limit);
    return rows.map((row) => ({
      ...row.order,
      ratePlanName: row.ratePlanName,
      invoiceId: row.invoiceId,
      paidGbpMinor: Number(row.paidGbpMinor),
    }));
  }

  /** The order a payment `(method, externalId)` was recorded for, or null when none was. */
  async paymentOrderId(method: PaymentMethod, externalId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ orderId: payments.orderId })
      .from(payments)
      .where(and(eq(payments.method, method), eq(payments.externalId, externalId)));
    return row?.orderId ?? null;
  }

  /** Records a payment; answers the total received for the order since it was placed. */
  async recordPayment(payment: typeof payments.$inferInsert): Promise<number> {
    await this.db.insert(payments).values(payment);
    const [row] = await this.db
      .select({ total: sql<number>`coalesce(sum(${payments.amountGbpMinor}), 0)::int` })
      .from(payments)
      .where(eq(payments.orderId, payment.orderId));
    return Number(row?.total ?? 0);
  }

  /**
   * The order and its invoice paid: `amountPaid` received by `paidAt`; the plan's period as it
   * turned out (a new plan's starts at its payment), with the fee line's words for that period.
   */
  /** The terms a plan or renewal order was placed with (null: none recorded, or no such order). */
  async terms(orderId: string): Promise<PlanTerms | null> {
    const [row] = await this.db.select({ terms: orders.terms }).from(orders).where(eq(orders.id, orderId));
    return row?.terms ?? null;
  }

  /** The plan as it was just before the order's payment made it ACTIVE (PAYMENT_REVERSED puts it back). */
  async recordPlanBefore(orderId: string, snapshot: Record<string, unknown>): Promise<void> {
    await this.db.update(orders).set({ planBefore: snapshot }).where(eq(orders.id, orderId));
  }

  async markPaid(
    order: OrderRow,
    paid: { amountPaid: number; paidAt: Date; periodStart: Date | null; periodEnd: Date | null; feeLine?: string },
  ): Promise<void> {
    const period = { periodStart: paid.periodStart, periodEnd: paid.periodEnd };
    await this.db
      .update(orders)
      .set({ status: 'PAID', paidAt: paid.paidAt, ...period })
      .where(eq(orders.id, order.id));
    await this.invoices.markPaid(order.id, paid);
  }

  /**
   * The order's payment `(method, externalId)` was undone (a chain took back the QNT that paid it,
   * issue 27 §4): the payment is removed, the order and its invoice wait for payment again with
   * what the other payments cover, and the order counts the reversal (its next payment's references).
   */
  async reopen(order: OrderRow, payment: { method: PaymentMethod; externalId: string }, at: Date): Promise<void> {
    await this.db
      .delete(payments)
      .where(
        and(
          eq(payments.orderId, order.id),
          eq(payments.method, payment.method),
          eq(payments.externalId, payment.externalId),
        ),
      );
    await this.db
      .update(orders)
      .set({ status: 'AWAITING_PAYMENT', paidAt: null, reversals: sql`${orders.reversals} + 1` })
      .where(eq(orders.id, order.id));
    await this.invoices.reopen(order.id, at);
  }

  /** The order withdrawn and its invoice void. */
  async markCancelled(orderId: string, at: Date): Promise<void> {
    await this.db.update(orders).set({ status: 'CANCELLED', cancelledAt: at }).where(eq(orders.id, orderId));
    await this.invoices.void(orderId, at);
  }

  /** The order, while it waits for its payment, is paid in QNT from now on (its invoice is paid in QNT: payment/invoices/pay.ts). */
  async payInQnt(orderId: string): Promise<void> {
    await this.db
      .update(orders)
      .set({ paymentMethod: 'QNT' })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'AWAITING_PAYMENT')));
  }

  /**
   * The USAGE orders that collect the month's bills (the month's close, payment/invoices/close.ts),
   * `on conflict do nothing` by account and key, in one statement for every account. Answers the
   * orders written.
   */
  async placeBills(bills: readonly MonthBill[], terms: MonthBillTerms): Promise<number> {
    const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;
    const rows = bills.map((bill) => ({ ...bill, periodStart: bill.periodStart.toISOString() }));
    const result = (await this.db.execute(sql`
      insert into ${orders} (id, account_id, user_id, idempotency_key, reference, kind, rate_plan_id, credits, payment_method,
        status, fee_gbp_minor, bundle_usd_cents, usd_per_gbp, rate_at, total_gbp_minor, period_start, period_end, due_at,
        created_at)
      select x."orderId", x."accountId", null, x."idempotencyKey", x.reference, 'USAGE', x."ratePlanId", x.credits,
        x."paymentMethod", 'AWAITING_PAYMENT', 0, x."bundleUsdCents", ${terms.usdPerGbp}, ${ts(terms.now)}, x."totalGbpMinor",
        x."periodStart", ${ts(terms.periodEnd)}, ${ts(terms.dueAt)}, ${ts(terms.now)}
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x("orderId" uuid, "accountId" uuid, "idempotencyKey" text,
        reference text, "ratePlanId" uuid, credits int, "paymentMethod" text, "bundleUsdCents" int, "totalGbpMinor" int,
        "periodStart" timestamptz)
      on conflict (account_id, idempotency_key) do nothing
      returning id`)) as unknown as { rows: unknown[] };
    return result.rows.length;
  }

  /** An invoice's lines in order (tests and the order's emails read them). */
  invoiceLines(invoiceId: string) {
    return this.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(asc(invoiceLines.position));
  }

  /** Whom to mail: the named user while an active member of the account, else every active member. */
  recipients(accountId: string, userId: string | null): Promise<OrderRecipient[]> {
    return accountRecipients(this.db, accountId, userId);
  }
}
