import { sql, type SQL } from 'drizzle-orm';
import type { Database, InvoiceCustomer, PaymentMethod, VatTreatment } from '@connect/db';
import type { TMethodClass, TUsageSource } from '@connect/shared';
import { termInForceSql } from '../../../repositories/plan-terms.ts';

/** The advisory lock of the month's close ('INVC'), one for the whole platform: closes run one after another. */
const CLOSE_LOCK = 0x494e5643;
/** The app_settings key the usage close keeps its mark in (services/usage/close-repository.ts). */
const USAGE_CLOSED_UNTIL = 'usage.closed_until';

/** One account's use in a period, by source and method class (from usage_records). */
export type UsageGroup = { source: TUsageSource; methodClass: TMethodClass; calls: number; microCredits: number };

/**
 * What one pay-as-you-go account is billed for a period, read for every account in one query:
 * the credits billed (B), the credits the ledger charged in the period (U), the plan's credit
 * price and the use behind them.
 */
export type PeriodFigures = {
  accountId: string;
  ratePlanId: string;
  creditPriceUsdCents: number;
  /** The account's period start: the month's start, or its last numbered month's invoice's end if later (a dev close); a draft left over (an abandoned period end) moves nothing. */
  periodStart: Date;
  billedCredits: number;
  usedCredits: number;
  usage: UsageGroup[];
};

/** A draft as the close writes it (figures in pence). */
export type DraftInvoice = {
  accountId: string;
  periodStart: Date;
  subtotalMinor: number;
  vatMinor: number;
  totalMinor: number;
  vatTreatment: VatTreatment;
  vatRateBp: number;
  totalUsdCents: number;
  lines: DraftLine[];
};

export type DraftLine = {
  description: string;
  quantity: number;
  unitPriceMinor: number;
  unitPrice: string;
  vatRateBp: number;
  vatMinor: number;
  amountMinor: number;
};

/** A draft about to be numbered (finalise). */
export type DraftRow = { id: string; accountId: string; periodStart: Date; totalMinor: number; totalUsdCents: number };

/** A draft about to be finalised: what its numbering sets besides the number, and the USAGE order that collects it. */
export type Bill = {
  invoiceId: string;
  orderId: string;
  accountId: string;
  customer: InvoiceCustomer;
  vatTreatment: VatTreatment;
  vatRateBp: number;
  qntAmountWei: string;
  reference: string;
  idempotencyKey: string;
  ratePlanId: string;
  credits: number;
  bundleUsdCents: number;
  totalGbpMinor: number;
  paymentMethod: PaymentMethod;
  periodStart: Date;
};

/** A bill with its number (taken last in the finalising transaction). */
export type Finalised = Bill & { number: string; seq: number };

const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
/** A pay-as-you-go account's credit price as it bought it (issue 33 §3; the tier's when none is recorded). */
const CREDIT_PRICE = sql.raw(termInForceSql('creditPriceUsdCents'));

/**
 * The month's close's queries (close.ts): every one set-based over all accounts at once, in a
 * transaction that holds the close's lock. Writes are keyed (the month's invoice is unique per
 * account and period end, a USAGE order per account and idempotency key) or guarded by status
 * (only drafts are recomputed, deleted or numbered), so a re-run writes nothing.
 */
export class InvoiceCloseRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: InvoiceCloseRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      work(new InvoiceCloseRepository(tx as unknown as Database), tx as unknown as Database),
    );
  }

  /** Waits for any other close (another node's, the dev endpoint's) to commit; held to this transaction's end. */
  async lockClose(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${CLOSE_LOCK}::int)`);
  }

  /** The usage close's mark: every billed hour before it is charged (null before the first close). */
  async usageClosedUntil(): Promise<Date | null> {
    const rows = await this.rows<{ value: string }>(
      sql`select value from app_settings where key = ${USAGE_CLOSED_UNTIL}`,
    );
    return rows[0] ? new Date(rows[0].value) : null;
  }

  /** The close of `periodEnd`: when it was drafted and finalised (null before its first run). */
  async closeOf(periodEnd: Date): Promise<{ draftedAt: Date | null; finalisedAt: Date | null } | null> {
    const rows = await this.rows<{ draftedAt: string | null; finalisedAt: string | null }>(sql`
      select drafted_at as "draftedAt", finalised_at as "finalisedAt" from invoice_closes where period_end = ${ts(periodEnd)}`);
    const row = rows[0];
    if (!row) return null;
    return {
      draftedAt: row.draftedAt ? new Date(row.draftedAt) : null,
      finalisedAt: row.finalisedAt ? new Date(row.finalisedAt) : null,
    };
  }

  async markDrafted(periodStart: Date, periodEnd: Date, now: Date): Promise<void> {
    await this.db.execute(sql`
      insert into invoice_closes (period_end, period_start, drafted_at) values (${ts(periodEnd)}, ${ts(periodStart)}, ${ts(now)})
      on conflict (period_end) do update set drafted_at = excluded.drafted_at where invoice_closes.finalised_at is null`);
  }

  async markFinalised(periodStart: Date, periodEnd: Date, now: Date, invoices: number): Promise<void> {
    await this.db.execute(sql`
      insert into invoice_closes (period_end, period_start, drafted_at, finalised_at, invoices)
      values (${ts(periodEnd)}, ${ts(periodStart)}, ${ts(now)}, ${ts(now)}, ${invoices})
      on conflict (period_end) do update set finalised_at = excluded.finalised_at, invoices = excluded.invoices
      where invoice_closes.finalised_at is null`);
  }

  /**
   * Every pay-as-you-go account's figures for the period ending at `periodEnd` (one query). An
   * account is in when it has use billed in its period (usage records by billed hour — the
   * ledger's `usage:` entries are keyed by the same hour, so the lines and the money agree) or
   * credits to bill. The credits billed (B) are those used on credit up to the period's end, less
   * those on earlier USAGE orders not yet bought back by then:
   *
   * - the balance as it stood for the period: the CREDIT balance now less the entries attributed
   *   to later periods — a `usage:` entry by the billed hour it charges (found from the usage
   *   records' hours through the unique reference), any other by its time (the created_at index);
   * - less the credits of earlier USAGE orders whose purchase (`order:<id>`) was not in the ledger
   *   by the period's end (paid later, or not yet).
   *
   * So every credit used on credit is billed once, whenever the bills are paid.
   */
  async figures(monthStart: Date, periodEnd: Date): Promise<PeriodFigures[]> {
    const end = ts(periodEnd);
    const start = ts(monthStart);
    const rows = await this.rows<{
      accountId: string;
      ratePlanId: string;
      price: number;
      periodStart: string | Date;
      billed: string | number;
      used: string | number;
      usage: [TUsageSource, TMethodClass, string | number, string | number][] | null;
    }>(sql`
      with payg as (
        select ap.account_id, ap.rate_plan_id, ${CREDIT_PRICE} as price,
          greatest(${start}, coalesce((
            select max(i.period_end) from invoices i
            where i.account_id = ap.account_id and i.kind = 'MONTHLY' and i.status <> 'DRAFT' and i.period_end < ${end}
          ), ${start})) as period_start
        from account_plans ap join rate_plans rp on rp.id = ap.rate_plan_id
        where rp.type = 'PAY_AS_YOU_GO' and ${CREDIT_PRICE} > 0
      ),
      used_groups as (
        select r.account_id, r.source, r.method_class, sum(r.calls) as calls, sum(r.micro_credits) as micro
        from usage_records r join payg g on g.account_id = r.account_id
        where r.billed_hour >= g.period_start and r.billed_hour < ${end}
        group by r.account_id, r.source, r.method_class
      ),
      usage as (
        select account_id, json_agg(json_build_array(source, method_class, calls, micro) order by source desc, method_class) as groups
        from used_groups group by account_id
      ),
      hours as (
        select distinct r.account_id, r.billed_hour from usage_records r join payg g on g.account_id = r.account_id
        where r.billed_hour >= g.period_start
      ),
      metered as (
        select h.account_id, h.billed_hour, e.amount
        from hours h join ledger_entries e on e.reference = 'usage:' || h.account_id || ':'
          || to_char(h.billed_hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ),
      moved as (
        select e.account_id, e.kind, e.amount, e.created_at from ledger_entries e
        where e.created_at >= ${start} and e.asset = 'CREDIT' and e.reference not like 'usage:%'
      ),
      later as (
        select account_id, sum(amount) as amount from (
          select account_id, amount from metered where billed_hour >= ${end}
          union all
          select account_id, amount from moved where created_at >= ${end}
        ) l group by account_id
      ),
      used as (
        select account_id, -sum(amount) as credits from (
          select m.account_id, m.amount from metered m where m.billed_hour < ${end}
          union all
          select m.account_id, m.amount from moved m join payg g on g.account_id = m.account_id
          where m.kind in ('consume', 'refund') and m.created_at >= g.period_start and m.created_at < ${end}
        ) u group by account_id
      ),
      unbought as (
        select o.account_id, sum(o.credits) as credits
        from orders o join payg g on g.account_id = o.account_id
        where o.kind = 'USAGE' and o.status <> 'CANCELLED' and o.period_end < ${end}
          and not exists (
            select 1 from ledger_entries p where p.reference = 'order:' || o.id and p.created_at < ${end}
          )
        group by o.account_id
      ),
      figures as (
        select g.account_id, g.rate_plan_id, g.price, g.period_start,
          greatest(0, greatest(0, -(coalesce(b.balance, 0) - coalesce(l.amount, 0))) - coalesce(x.credits, 0)) as billed,
          coalesce(u.credits, 0) as used, s.groups as usage
        from payg g
          left join ledger_balances b on b.account_id = g.account_id and b.asset = 'CREDIT'
          left join later l on l.account_id = g.account_id
          left join unbought x on x.account_id = g.account_id
          left join used u on u.account_id = g.account_id
          left join usage s on s.account_id = g.account_id
      )
      select account_id as "accountId", rate_plan_id as "ratePlanId", price, period_start as "periodStart",
        billed, used, usage
      from figures where billed > 0 or usage is not null
      order by account_id`);
    return rows.map((row) => ({
      accountId: row.accountId,
      ratePlanId: row.ratePlanId,
      creditPriceUsdCents: Number(row.price),
      periodStart: new Date(row.periodStart),
      billedCredits: Number(row.billed),
      usedCredits: Number(row.used),
      usage: (row.usage ?? []).map(([source, methodClass, calls, micro]) => ({
        source,
        methodClass,
        calls: Number(calls),
        microCredits: Number(micro),
      })),
    }));
  }

  /**
   * Writes the period's drafts: one per account (insert, or the draft recomputed — a numbered
   * invoice is left as it is), its lines replaced; drafts of accounts no longer in are deleted.
   */
  async writeDrafts(periodEnd: Date, now: Date, termsDays: number, drafts: DraftInvoice[]): Promise<number> {
    const end = ts(periodEnd);
    const accounts = drafts.map((draft) => draft.accountId);
    await this.db.execute(sql`
      delete from invoices where kind = 'MONTHLY' and period_end = ${end} and status = 'DRAFT'
        and account_id not in (select value::uuid from jsonb_array_elements_text(${json(accounts)}))`);
    if (drafts.length === 0) return 0;
    const rows = drafts.map(({ lines: _lines, periodStart, ...draft }) => ({
      ...draft,
      periodStart: periodStart.toISOString(),
    }));
    const written = await this.rows<{ id: string }>(sql`
      insert into invoices (account_id, kind, status, currency, subtotal_minor, vat_minor, total_minor, vat_treatment,
        vat_rate_bp, total_usd_cents, period_start, period_end, usage_cut_at, issued_at, due_at, terms_days, updated_at)
      select x."accountId", 'MONTHLY', 'DRAFT', 'GBP', x."subtotalMinor", x."vatMinor", x."totalMinor", x."vatTreatment",
        x."vatRateBp", x."totalUsdCents", x."periodStart", ${end}, ${ts(now)}, ${ts(now)},
        ${ts(now)} + make_interval(days => ${termsDays}), ${termsDays}, ${ts(now)}
      from jsonb_to_recordset(${json(rows)}) as x("accountId" uuid, "subtotalMinor" int, "vatMinor" int, "totalMinor" int,
        "vatTreatment" text, "vatRateBp" int, "totalUsdCents" bigint, "periodStart" timestamptz)
      on conflict (account_id, period_end) where kind = 'MONTHLY' do update set
        subtotal_minor = excluded.subtotal_minor, vat_minor = excluded.vat_minor, total_minor = excluded.total_minor,
        vat_treatment = excluded.vat_treatment, vat_rate_bp = excluded.vat_rate_bp,
        total_usd_cents = excluded.total_usd_cents, period_start = excluded.period_start,
        usage_cut_at = excluded.usage_cut_at, updated_at = excluded.updated_at
      where invoices.status = 'DRAFT'
      returning id`);
    await this.db.execute(sql`
      delete from invoice_lines where invoice_id in (
        select id from invoices where kind = 'MONTHLY' and period_end = ${end} and status = 'DRAFT')`);
    const lines = drafts.flatMap((draft) =>
      draft.lines.map((line, index) => ({ accountId: draft.accountId, position: index + 1, ...line })),
    );
    await this.db.execute(sql`
      insert into invoice_lines (invoice_id, position, description, quantity, unit_price_minor, unit_price, vat_rate_bp,
        vat_minor, amount_minor)
      select i.id, x.position, x.description, x.quantity, x."unitPriceMinor", x."unitPrice", x."vatRateBp", x."vatMinor",
        x."amountMinor"
      from jsonb_to_recordset(${json(lines)}) as x("accountId" uuid, position int, description text, quantity bigint,
        "unitPriceMinor" int, "unitPrice" text, "vatRateBp" int, "vatMinor" int, "amountMinor" int)
        join invoices i on i.account_id = x."accountId" and i.kind = 'MONTHLY' and i.period_end = ${end}
          and i.status = 'DRAFT'`);
    return written.length;
  }

  /**
   * Drafts of earlier period ends, never numbered (an outage past their grace window, a dev close
   * that stopped after its draft), are superseded by this period's invoices, which start after
   * each account's last numbered one and so cover their use: deleted, and their closes ended with
   * no invoice. Answers how many.
   */
  async deleteSupersededDrafts(periodEnd: Date, now: Date): Promise<number> {
    const rows = await this.rows<{ id: string }>(sql`
      delete from invoices where kind = 'MONTHLY' and period_end < ${ts(periodEnd)} and status = 'DRAFT' returning id`);
    await this.db.execute(sql`
      update invoice_closes set finalised_at = ${ts(now)}, invoices = 0
      where period_end < ${ts(periodEnd)} and finalised_at is null`);
    return rows.length;
  }

  /** Drafts that bill nothing are deleted: never numbered, no invoice. Answers how many. */
  async deleteEmptyDrafts(periodEnd: Date): Promise<number> {
    const rows = await this.rows<{ id: string }>(sql`
      delete from invoices where kind = 'MONTHLY' and period_end = ${ts(periodEnd)} and status = 'DRAFT'
        and total_minor = 0 returning id`);
    return rows.length;
  }

  /** The period's drafts in the order they are numbered (by account id). */
  async drafts(periodEnd: Date): Promise<DraftRow[]> {
    const rows = await this.rows<{
      id: string;
      accountId: string;
      periodStart: string | Date;
      totalMinor: number;
      totalUsdCents: string | number;
    }>(sql`
      select id, account_id as "accountId", period_start as "periodStart", total_minor as "totalMinor",
        total_usd_cents as "totalUsdCents"
      from invoices where kind = 'MONTHLY' and period_end = ${ts(periodEnd)} and status = 'DRAFT'
      order by account_id`);
    return rows.map((row) => ({
      ...row,
      periodStart: new Date(row.periodStart),
      totalMinor: Number(row.totalMinor),
      totalUsdCents: Number(row.totalUsdCents),
    }));
  }

  /**
   * The drafts numbered, OPEN and pointing at their orders, in one statement for all accounts
   * (the drafts' rows are this transaction's already: the draft run before it wrote them).
   */
  async numberInvoices(
    periodEnd: Date,
    now: Date,
    terms: { termsDays: number; dueAt: Date; usdPerGbp: string; gbpPerQnt: string; qntRateAt: Date },
    invoices: Finalised[],
  ): Promise<void> {
    const rows = invoices.map((invoice) => ({ ...invoice, periodStart: invoice.periodStart.toISOString() }));
    await this.db.execute(sql`
      update invoices i set number = x.number, number_seq = x.seq, status = 'OPEN', customer = x.customer,
        vat_treatment = x."vatTreatment", vat_rate_bp = x."vatRateBp", usd_per_gbp = ${terms.usdPerGbp},
        qnt_amount_wei = x."qntAmountWei"::numeric, gbp_per_qnt = ${terms.gbpPerQnt}, qnt_rate_at = ${ts(terms.qntRateAt)},
        usage_cut_at = ${ts(now)}, finalised_at = ${ts(now)}, issued_at = ${ts(now)}, due_at = ${ts(terms.dueAt)},
        terms_days = ${terms.termsDays}, updated_at = ${ts(now)}, order_id = x."orderId"
      from jsonb_to_recordset(${json(rows)}) as x("invoiceId" uuid, "orderId" uuid, number text, seq bigint,
        customer jsonb, "vatTreatment" text, "vatRateBp" int, "qntAmountWei" text)
      where i.id = x."invoiceId" and i.status = 'DRAFT' and i.period_end = ${ts(periodEnd)}`);
  }

  private async rows<T>(query: SQL): Promise<T[]> {
    const result = (await this.db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }
}
