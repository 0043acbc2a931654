import { and, asc, desc, eq, gte, inArray, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import {
  accountPlans,
  applicationMonthSpend,
  applications,
  gatewayUsageHourly,
  ledgerEntries,
  networks,
  ratePlans,
  usageRecords,
  type Database,
  type PlanType,
} from '@connect/db';
import type { TMethodClass } from '@connect/shared';
import type { EventBus } from '../../events/port.ts';
import { recordCapAlerts, type MonthTotal } from '../../repositories/cap-alerts.ts';
import { LedgerRepository } from '../../repositories/ledger.ts';
import { termInForceSql } from '../../repositories/plan-terms.ts';

/** A range of time: from (included) to (excluded). */
export type Span = { from: Date; to: Date };
export type Granularity = 'hour' | 'day';

/** One bucket's use as summed in the database (micro-credits). */
export type BucketRow = {
  start: Date;
  applicationId: string | null;
  networkId: string | null;
  method: string;
  methodClass: TMethodClass | null;
  calls: number;
  microCredits: number;
};

export type ApplicationCapRow = { id: string; name: string; monthlyCapMicro: number | null };

/** An SQL-side sum of a bigint column as a JS number (sums of micro-credits stay far below 2^53). */
const total = (column: AnyColumn) => sql<number>`coalesce(sum(${column}), 0)::bigint`.mapWith(Number);

/**
 * The start of the column's UTC hour or day. The unit is written into the statement, not bound:
 * PostgreSQL matches the GROUP BY to the select list by text, and two bound parameters ($1, $2)
 * never match. Only the two units of the type reach it.
 */
const bucketOf = (column: typeof gatewayUsageHourly.hour | typeof usageRecords.hour, unit: Granularity) =>
  sql<Date>`date_trunc(${sql.raw(`'${unit === 'hour' ? 'hour' : 'day'}'`)}, ${column}, 'UTC')`.mapWith(column);

/**
 * The port through which the usage API sets (or, with null, removes) an application's monthly
 * cap: `applications` is the application manager's table, and that service fills the port when it
 * registers the usage routes (it imports usage, so usage cannot import it). Called with the
 * caller's database or transaction: the cap commits with the check and the alert around it.
 */
export type ApplicationCapWriter = (db: Database, applicationId: string, capMicro: number | null) => Promise<void>;

/**
 * What the usage API reads (issue 17 §2, §3): the gateway's hourly counters, the deployments'
 * usage records, the names they point at, the account's plan and credit ledger, and the
 * applications' caps. It writes nothing of its own: an application's monthly cap is set through
 * the application manager's `ApplicationCapWriter`.
 */
export class UsageReportRepository {
  readonly ledger: LedgerRepository;

  constructor(
    private readonly db: Database,
    private readonly writeCap: ApplicationCapWriter,
  ) {
    this.ledger = new LedgerRepository(db);
  }

  transaction<T>(work: (repo: UsageReportRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new UsageReportRepository(tx as unknown as Database, this.writeCap)));
  }

  /** The cap's alerts for a month already at or past the new cap (repositories/cap-alerts.ts), in this transaction. */
  capAlerts(events: EventBus, total: MonthTotal): Promise<string[]> {
    return recordCapAlerts(this.db, events, [total]);
  }

  /** The account's application (null for another account's or an unknown one), locked when `forUpdate`. */
  async application(accountId: string, id: string, { forUpdate = false } = {}): Promise<ApplicationCapRow | null> {
    const query = this.db
      .select({ id: applications.id, name: applications.name, monthlyCapMicro: applications.monthlyCapMicro })
      .from(applications)
      .where(and(eq(applications.accountId, accountId), eq(applications.id, id)));
    const [row] = forUpdate ? await query.for('update') : await query;
    return row ?? null;
  }

  /** Gateway calls per bucket, application, network and method (the counters: every node, the open hour too). */
  gatewayBuckets(accountId: string, span: Span, unit: Granularity, applicationId?: string): Promise<BucketRow[]> {
    const start = bucketOf(gatewayUsageHourly.hour, unit);
    return this.db
      .select({
        start,
        applicationId: gatewayUsageHourly.applicationId,
        networkId: gatewayUsageHourly.networkId,
        method: gatewayUsageHourly.method,
        methodClass: sql<null>`null`,
        calls: total(gatewayUsageHourly.calls),
        microCredits: total(gatewayUsageHourly.microCredits),
      })
      .from(gatewayUsageHourly)
      .where(this.gatewayOf(accountId, span, applicationId))
      .groupBy(start, gatewayUsageHourly.applicationId, gatewayUsageHourly.networkId, gatewayUsageHourly.method)
      .orderBy(start);
  }

  /** Deployments per bucket and network (their records, refunds netted), in the hour they happened. */
  deploymentBuckets(accountId: string, span: Span, unit: Granularity): Promise<BucketRow[]> {
    const start = bucketOf(usageRecords.hour, unit);
    return this.db
      .select({
        start,
        applicationId: sql<null>`null`,
        networkId: usageRecords.networkId,
        method: usageRecords.method,
        methodClass: usageRecords.methodClass,
        calls: total(usageRecords.calls),
        microCredits: total(usageRecords.microCredits),
      })
      .from(usageRecords)
      .where(this.deploymentsOf(accountId, span))
      .groupBy(start, usageRecords.networkId, usageRecords.method, usageRecords.methodClass)
      .orderBy(start);
  }

  /** Micro-credits the account used in the span: its gateway counters and its deployments. */
  async usedMicro(accountId: string, span: Span): Promise<number> {
    const [[gateway], [deployments]] = await Promise.all([
      this.db
        .select({ micro: total(gatewayUsageHourly.microCredits) })
        .from(gatewayUsageHourly)
        .where(this.gatewayOf(accountId, span)),
      this.db
        .select({ micro: total(usageRecords.microCredits) })
        .from(usageRecords)
        .where(this.deploymentsOf(accountId, span)),
    ]);
    return (gateway?.micro ?? 0) + (deployments?.micro ?? 0);
  }

  /** Names of the account's applications among `ids` (a deleted one is simply missing). */
  async applicationNames(accountId: string, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: applications.id, name: applications.name })
      .from(applications)
      .where(and(eq(applications.accountId, accountId), inArray(applications.id, ids)));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async networkNames(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: networks.id, name: networks.name })
      .from(networks)
      .where(inArray(networks.id, ids));
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /**
   * The account's plan type and credit price as it bought it (issue 33 §3: not the tier as staff
   * edited it since), null for an account without a plan.
   */
  async plan(accountId: string): Promise<{ type: PlanType; creditPriceUsdCents: number | null } | null> {
    const price = termInForceSql('creditPriceUsdCents', 'account_plans', 'rate_plans');
    const [row] = await this.db
      .select({ type: ratePlans.type, creditPriceUsdCents: sql<number | null>`${sql.raw(price)}`.mapWith(Number) })
      .from(accountPlans)
      .innerJoin(ratePlans, eq(ratePlans.id, accountPlans.ratePlanId))
      .where(eq(accountPlans.accountId, accountId));
    return row ?? null;
  }

  /** The CREDIT balance after the last entry before `before` (0 when there is none). */
  async creditBalanceBefore(accountId: string, before: Date): Promise<bigint> {
    const [row] = await this.db
      .select({ balanceAfter: ledgerEntries.balanceAfter })
      .from(ledgerEntries)
      .where(this.creditEntriesOf(accountId, lt(ledgerEntries.createdAt, before)))
      .orderBy(desc(ledgerEntries.id))
      .limit(1);
    return row?.balanceAfter ?? 0n;
  }

  /** The account's CREDIT entries in the span, in the ledger's order. */
  creditEntries(accountId: string, span: Span) {
    return this.db
      .select({
        createdAt: ledgerEntries.createdAt,
        amount: ledgerEntries.amount,
        balanceAfter: ledgerEntries.balanceAfter,
        reason: ledgerEntries.reason,
      })
      .from(ledgerEntries)
      .where(
        this.creditEntriesOf(
          accountId,
          and(gte(ledgerEntries.createdAt, span.from), lt(ledgerEntries.createdAt, span.to))!,
        ),
      )
      .orderBy(asc(ledgerEntries.id));
  }

  /** Every application of the account with its cap and what its gateway calls cost in `month` (its first day). */
  async applicationsWithSpend(
    accountId: string,
    month: string,
    applicationId?: string,
  ): Promise<(ApplicationCapRow & { usedMicro: number })[]> {
    return this.db
      .select({
        id: applications.id,
        name: applications.name,
        monthlyCapMicro: applications.monthlyCapMicro,
        usedMicro: sql<number>`coalesce(${applicationMonthSpend.microCredits}, 0)`.mapWith(Number),
      })
      .from(applications)
      .leftJoin(
        applicationMonthSpend,
        and(eq(applicationMonthSpend.applicationId, applications.id), eq(applicationMonthSpend.month, month)),
      )
      .where(and(eq(applications.accountId, accountId), applicationId ? eq(applications.id, applicationId) : undefined))
      .orderBy(asc(applications.name), asc(applications.id));
  }

  /** Sets (or, with null, removes) the application's monthly cap. */
  setCap(applicationId: string, capMicro: number | null): Promise<void> {
    return this.writeCap(this.db, applicationId, capMicro);
  }

  /** The account's gateway counters in the span, of one application when given. */
  private gatewayOf(accountId: string, span: Span, applicationId?: string) {
    return and(
      eq(gatewayUsageHourly.accountId, accountId),
      gte(gatewayUsageHourly.hour, span.from),
      lt(gatewayUsageHourly.hour, span.to),
      applicationId ? eq(gatewayUsageHourly.applicationId, applicationId) : undefined,
    );
  }

  private deploymentsOf(accountId: string, span: Span) {
    return and(
      eq(usageRecords.accountId, accountId),
      eq(usageRecords.source, 'DEPLOYMENT'),
      gte(usageRecords.hour, span.from),
      lt(usageRecords.hour, span.to),
    );
  }

  private creditEntriesOf(accountId: string, when: SQL) {
    return and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.asset, 'CREDIT'), when);
  }
}
