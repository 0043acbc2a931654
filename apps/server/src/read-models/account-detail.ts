import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@connect/db';
import { ACCOUNT_DETAIL_LIMITS, type TManagementAccountDetail } from '@connect/shared';
import { presentRawAuditRow } from '../repositories/audit-log.ts';

export type Row = Record<string, unknown>;
type Detail = TManagementAccountDetail;

export const iso = (value: unknown) =>
  value === null || value === undefined ? null : new Date(value as string).toISOString();
export const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

/** An order as staff see it (the panel, the orders screen): what was received, refunded, and how it was paid. */
export const ORDER_COLUMNS = sql`o.id, o.reference, o.kind, o.status, o.payment_method as "paymentMethod",
  rp.name as "planName", o.credits, o.total_gbp_minor as "totalGbpMinor", o.created_at::text as "createdAt",
  o.due_at::text as "dueAt", o.paid_at::text as "paidAt", i.id as "invoiceId", i.number as "invoiceNumber",
  (select coalesce(sum(p.amount_gbp_minor), 0)::int from payments p where p.order_id = o.id) as "paid",
  (select coalesce(sum(c.amount_minor), 0)::int from credit_notes c where c.invoice_id = i.id) as "refunded",
  (select coalesce(string_agg(distinct p.method, ','), '') from payments p where p.order_id = o.id) as "paidBy"`;
/** `orders o` with its plan and invoice, as ORDER_COLUMNS reads them. */
export const ORDER_TABLES = sql`orders o
  left join rate_plans rp on rp.id = o.rate_plan_id
  left join invoices i on i.order_id = o.id`;

type DetailOrder = TManagementAccountDetail['orders'][number];

export function toDetailOrder(row: Row): DetailOrder {
  return {
    id: String(row.id),
    reference: String(row.reference),
    kind: row.kind as DetailOrder['kind'],
    status: row.status as DetailOrder['status'],
    paymentMethod: row.paymentMethod as DetailOrder['paymentMethod'],
    planName: text(row.planName),
    credits: Number(row.credits),
    totalGbpMinor: Number(row.totalGbpMinor),
    paidGbpMinor: Number(row.paid),
    refundedGbpMinor: Number(row.refunded),
    paidBy: String(row.paidBy).split(',').filter(Boolean) as DetailOrder['paidBy'],
    createdAt: iso(row.createdAt)!,
    dueAt: iso(row.dueAt)!,
    paidAt: iso(row.paidAt),
    invoiceId: text(row.invoiceId),
    invoiceNumber: text(row.invoiceNumber),
  };
}

/**
 * A read model (README.md): the account panel of /account-management (issue 33 §1; spec §3
 * Account detail) across the tables of the services that own them — accounts and
 * account_directory (connect), billing_details (connect), account_plans and rate_plans
 * (account-plan), orders, payments and invoices (account-plan, payment), refunds and credit_notes
 * (payment), ledger_balances and audit_log (platform). Each list is the account's latest few,
 * read from an index on the account (or on its orders and users); nothing here writes.
 */
export class AccountDetailReadModel {
  constructor(private readonly db: Database) {}

  private async rows(query: SQL): Promise<Row[]> {
    return ((await this.db.execute(query)) as unknown as { rows: Row[] }).rows;
  }

  /** The panel of one account, or null when there is no such account. */
  async detail(accountId: string): Promise<Detail | null> {
    const [head] = await this.rows(sql`
      select a.organisation_name as "organisationName", d.status, a.created_at::text as "createdAt",
        d.owner_user_id as "ownerUserId", d.owner_email as "ownerEmail", d.owner_name as "ownerName",
        a.industry, a.company_size as "companySize", a.organisation_location as "location",
        b.telephone, b.country,
        rp.name as "planName", rp.type as "planType", ap.status as "planStatus", ap.status_reason as "statusReason",
        ap.trial_ends_at::text as "trialEndsAt", ap.period_end::text as "periodEnd",
        ap.cancel_at_period_end as "cancelAtPeriodEnd", np.name as "nextPlanName",
        ap.last_payment_method as "paymentPreference",
        (select count(*)::int from audit_log l
          where l.record_type = 'account' and l.record_id = ${accountId}::text and l.action = 'TRIAL_EXTENDED'
            and l.outcome = 'DONE') as "trialExtensions"
      from accounts a
      join account_directory d on d.account_id = a.id
      left join billing_details b on b.account_id = a.id
      left join account_plans ap on ap.account_id = a.id
      left join rate_plans rp on rp.id = ap.rate_plan_id
      left join rate_plans np on np.id = ap.next_rate_plan_id
      where a.id = ${accountId}`);
    if (!head) return null;
    const [balances, orders, invoices, payments, creditNotes, recentAudit] = await Promise.all([
      this.balances(accountId),
      this.orders(accountId),
      this.invoices(accountId),
      this.payments(accountId),
      this.creditNotes(accountId),
      this.recentAudit(accountId),
    ]);
    return {
      accountId,
      organisationName: text(head.organisationName),
      status: head.status as Detail['status'],
      createdAt: iso(head.createdAt)!,
      owner: head.ownerUserId
        ? {
            userId: String(head.ownerUserId),
            email: String(head.ownerEmail),
            name: text(head.ownerName),
            phone: text(head.telephone),
          }
        : null,
      business: { industry: text(head.industry), companySize: text(head.companySize) },
      location: text(head.location) ?? text(head.country),
      plan: head.planName
        ? {
            name: String(head.planName),
            type: head.planType as NonNullable<Detail['plan']>['type'],
            status: head.planStatus as NonNullable<Detail['plan']>['status'],
            statusReason: (head.statusReason as NonNullable<Detail['plan']>['statusReason']) ?? null,
            trialEndsAt: iso(head.trialEndsAt),
            periodEnd: iso(head.periodEnd),
            cancelAtPeriodEnd: Boolean(head.cancelAtPeriodEnd),
            nextPlanName: text(head.nextPlanName),
            paymentPreference: (head.paymentPreference as NonNullable<Detail['plan']>['paymentPreference']) ?? null,
          }
        : null,
      trialExtensions: Number(head.trialExtensions),
      balances,
      orders,
      invoices,
      payments,
      creditNotes,
      recentAudit,
    };
  }

  private async balances(accountId: string): Promise<Detail['balances']> {
    const rows = await this.rows(
      sql`select asset, balance::text as balance from ledger_balances where account_id = ${accountId}`,
    );
    const of = (asset: string) => String(rows.find((row) => row.asset === asset)?.balance ?? '0');
    return { credits: of('CREDIT'), qntWei: of('QNT'), rewardQntWei: of('REWARD_QNT') };
  }

  private async orders(accountId: string): Promise<Detail['orders']> {
    const rows = await this.rows(sql`
      select ${ORDER_COLUMNS} from ${ORDER_TABLES}
      where o.account_id = ${accountId}
      order by o.created_at desc, o.id desc
      limit ${ACCOUNT_DETAIL_LIMITS.orders}`);
    return rows.map(toDetailOrder);
  }

  private async invoices(accountId: string): Promise<Detail['invoices']> {
    const rows = await this.rows(sql`
      select id, number, status, total_minor as "totalMinor", currency, issued_at::text as "issuedAt",
        due_at::text as "dueAt", paid_at::text as "paidAt"
      from invoices where account_id = ${accountId}
      order by issued_at desc, id desc
      limit ${ACCOUNT_DETAIL_LIMITS.invoices}`);
    return rows.map((row) => ({
      id: String(row.id),
      number: text(row.number),
      status: row.status as Detail['invoices'][number]['status'],
      totalMinor: Number(row.totalMinor),
      currency: String(row.currency),
      issuedAt: iso(row.issuedAt)!,
      dueAt: iso(row.dueAt)!,
      paidAt: iso(row.paidAt),
    }));
  }

  private async payments(accountId: string): Promise<Detail['payments']> {
    const rows = await this.rows(sql`
      select p.id, p.order_id as "orderId", o.reference as "orderReference", p.method, p.external_id as "externalId",
        p.amount_gbp_minor as "amountGbpMinor", p.received_at::text as "receivedAt"
      from orders o join payments p on p.order_id = o.id
      where o.account_id = ${accountId}
      order by p.received_at desc, p.id desc
      limit ${ACCOUNT_DETAIL_LIMITS.payments}`);
    return rows.map((row) => ({
      id: String(row.id),
      orderId: String(row.orderId),
      orderReference: String(row.orderReference),
      method: row.method as Detail['payments'][number]['method'],
      externalId: String(row.externalId),
      amountGbpMinor: Number(row.amountGbpMinor),
      receivedAt: iso(row.receivedAt)!,
    }));
  }

  private async creditNotes(accountId: string): Promise<Detail['creditNotes']> {
    const rows = await this.rows(sql`
      select c.id, c.number, c.invoice_id as "invoiceId", c.amount_minor as "amountMinor", c.reason,
        c.issued_at::text as "issuedAt"
      from invoices i join credit_notes c on c.invoice_id = i.id
      where i.account_id = ${accountId}
      order by c.issued_at desc, c.id desc
      limit ${ACCOUNT_DETAIL_LIMITS.creditNotes}`);
    return rows.map((row) => ({
      id: String(row.id),
      number: text(row.number),
      invoiceId: String(row.invoiceId),
      amountMinor: Number(row.amountMinor),
      reason: String(row.reason),
      issuedAt: iso(row.issuedAt)!,
    }));
  }

  /**
   * The latest entries about the account itself, its users and its orders: each branch an index
   * seek on audit_log (record_type, record_id, occurred_at), merged and cut to the panel's few.
   */
  private async recentAudit(accountId: string): Promise<Detail['recentAudit']> {
    const limit = ACCOUNT_DETAIL_LIMITS.audit;
    const rows = await this.rows(sql`
      select * from (
        (select l.* from audit_log l
          where l.record_type = 'account' and l.record_id = ${accountId}::text
          order by l.occurred_at desc, l.id desc limit ${limit})
        union all
        (select l.* from users u cross join lateral (
            select * from audit_log l where l.record_type = 'user' and l.record_id = u.id::text
            order by l.occurred_at desc, l.id desc limit ${limit}) l
          where u.account_id = ${accountId})
        union all
        (select l.* from orders o cross join lateral (
            select * from audit_log l where l.record_type = 'order' and l.record_id = o.id::text
            order by l.occurred_at desc, l.id desc limit ${limit}) l
          where o.account_id = ${accountId})
      ) recent
      order by occurred_at desc, id desc
      limit ${limit}`);
    return rows.map(presentRawAuditRow);
  }
}
