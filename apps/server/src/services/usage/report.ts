import {
  capState,
  creditsToMicro,
  methodClass,
  microToCredits,
  type TApplicationSpend,
  type TBalanceHistory,
  type TBalanceHistoryQuery,
  type TSpendingCaps,
  type TUsageBucket,
  type TUsageForecast,
  type TUsageReport,
  type TUsageReportQuery,
} from '@connect/shared';
import type { EventBus } from '../../events/port.ts';
import { notFound } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { BucketRow, Span, UsageReportRepository } from './report-repository.ts';

type Caller = Pick<PortalUser, 'accountId'>;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The trend of the month never rests on less than a day of it (see `forecastOf`). */
const MIN_TREND_MS = DAY_MS;
/** The window of the daily rate the prepaid credits are run down at. */
const RATE_WINDOW_DAYS = 7;
/** What a bucket of a deleted application is called (its counters outlive it until the cascade). */
export const DELETED_APPLICATION = 'Deleted application';

/** The UTC days `from`..`to` (both included) as a span of time. */
export function daySpan(from: string, to: string): Span {
  return { from: new Date(`${from}T00:00:00.000Z`), to: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS) };
}

/** The first instant of the UTC month of `at`, and of the next one. */
export function monthOf(at: Date): { start: Date; end: Date; day: string } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end, day: start.toISOString().slice(0, 10) };
}

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

function toBucket(row: BucketRow): TUsageBucket {
  return {
    start: row.start.toISOString(),
    applicationId: row.applicationId,
    networkId: row.networkId,
    method: row.method,
    methodClass: row.methodClass ?? methodClass(row.method),
    calls: row.calls,
    credits: microToCredits(row.microCredits),
  };
}

/** Oldest first; within a bucket by application, network and method, so a report reads the same every time. */
function byStartThenKey(a: TUsageBucket, b: TUsageBucket): number {
  const key = (bucket: TUsageBucket) =>
    `${bucket.start}|${bucket.applicationId ?? '~'}|${bucket.networkId ?? ''}|${bucket.method}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

/** A report's rows with the names a person reads (the CSV export's lines). */
export type NamedBucket = TUsageBucket & { applicationName: string | null; networkName: string | null };

/**
 * The usage API (issue 17 §2, §3): where the credits went — per application, network and method,
 * by hour or day — the month's forecast, the credit balance's history, and the applications'
 * monthly spending caps. Only ever the caller's account.
 */
export class UsageReportService {
  constructor(
    private readonly repo: UsageReportRepository,
    /** Where a cap set at or below the month's use announces its alert (usage.cap_crossed). */
    private readonly events: EventBus,
    /** Called after a cap changed, so the gateway reads the application's route again at once. */
    private readonly onCapChanged: (applicationId: string) => void = () => undefined,
  ) {}

  /**
   * GET /usage/report. Buckets of the gateway's counters (live: every node, the open hour
   * included) and, unless one application is asked for, of the account's deployments (no
   * application: a deployment is the account's). The forecast is always the account's whole
   * month, whatever the range: the bill and the balance are the account's.
   */
  async report(caller: Caller, query: TUsageReportQuery, now = new Date()): Promise<TUsageReport> {
    if (query.applicationId) await this.requireApplication(caller, query.applicationId);
    const span = daySpan(query.from, query.to);
    const [gateway, deployments, forecast] = await Promise.all([
      this.repo.gatewayBuckets(caller.accountId, span, query.granularity, query.applicationId),
      query.applicationId
        ? Promise.resolve([])
        : this.repo.deploymentBuckets(caller.accountId, span, query.granularity),
      this.forecast(caller, now),
    ]);
    // A deployment refunded in the same bucket nets to nothing: it is not use.
    const buckets = [...gateway, ...deployments]
      .filter((row) => row.calls !== 0 || row.microCredits !== 0)
      .map(toBucket)
      .sort(byStartThenKey);
    const applicationIds = [...new Set(buckets.flatMap((b) => (b.applicationId ? [b.applicationId] : [])))];
    const networkIds = [...new Set(buckets.flatMap((b) => (b.networkId ? [b.networkId] : [])))];
    const [applicationNames, networkNames] = await Promise.all([
      this.repo.applicationNames(caller.accountId, applicationIds),
      this.repo.networkNames(networkIds),
    ]);
    const totalMicro = [...gateway, ...deployments].reduce((sum, row) => sum + row.microCredits, 0);
    return {
      from: query.from,
      to: query.to,
      granularity: query.granularity,
      buckets,
      applications: applicationIds.map((id) => ({ id, name: applicationNames.get(id) ?? DELETED_APPLICATION })),
      networks: networkIds.map((id) => ({ id, name: networkNames.get(id) ?? id })),
      totals: { calls: buckets.reduce((sum, b) => sum + b.calls, 0), credits: microToCredits(totalMicro) },
      forecast,
    };
  }

  /** The report's buckets with their names, for the CSV export (one decision of what a report holds). */
  async namedBuckets(caller: Caller, query: TUsageReportQuery, now = new Date()): Promise<NamedBucket[]> {
    const report = await this.report(caller, query, now);
    const applications = new Map(report.applications.map((a) => [a.id, a.name]));
    const networks = new Map(report.networks.map((n) => [n.id, n.name]));
    return report.buckets.map((bucket) => ({
      ...bucket,
      applicationName: bucket.applicationId ? (applications.get(bucket.applicationId) ?? DELETED_APPLICATION) : null,
      networkName: bucket.networkId ? (networks.get(bucket.networkId) ?? null) : null,
    }));
  }

  /**
   * The month so far and where it leads (docs/decisions/usage-and-invoices.md, "The forecast"):
   * - used: the gateway's counters since the UTC month began and the deployments in it;
   * - predicted: a straight line through the month so far — the rate over the elapsed time,
   *   continued to the month's end. In the month's first day the elapsed time counts as one whole
   *   day, so an hour's burst after midnight is not multiplied by 720;
   * - pay as you go: the predicted credits at the plan's credit price;
   * - prepaid (trial, subscription): the day the available credits run out at the last seven
   *   days' daily rate, null when they last the month (or nothing is used).
   */
  async forecast(caller: Caller, now = new Date()): Promise<TUsageForecast> {
    const month = monthOf(now);
    const rateSince = new Date(now.getTime() - RATE_WINDOW_DAYS * DAY_MS);
    const [usedMicro, recentMicro, plan, credits] = await Promise.all([
      this.repo.usedMicro(caller.accountId, { from: month.start, to: month.end }),
      this.repo.usedMicro(caller.accountId, { from: rateSince, to: new Date(now.getTime() + HOUR_MS) }),
      this.repo.plan(caller.accountId),
      this.repo.ledger.balance(caller.accountId, 'CREDIT'),
    ]);
    const elapsed = Math.max(now.getTime() - month.start.getTime(), MIN_TREND_MS);
    const remaining = Math.max(month.end.getTime() - now.getTime(), 0);
    const predictedMicro = Math.round(usedMicro + (usedMicro / elapsed) * remaining);
    const predictedCredits = microToCredits(predictedMicro);
    const isPayAsYouGo = plan?.type === 'PAY_AS_YOU_GO';
    const creditPriceUsdCents = plan?.creditPriceUsdCents ?? null;
    return {
      month: month.day,
      usedCredits: microToCredits(usedMicro),
      predictedCredits,
      predictedCostUsdCents:
        isPayAsYouGo && creditPriceUsdCents !== null ? Math.round(predictedCredits * creditPriceUsdCents) : null,
      creditPriceUsdCents,
      creditsRunOutOn: isPayAsYouGo
        ? null
        : runOutDay(Number(credits.available), microToCredits(recentMicro) / RATE_WINDOW_DAYS, now, month.end),
    };
  }

  /** GET /usage/balance-history: the CREDIT balance before the range, then after each entry in it. */
  async balanceHistory(caller: Caller, query: TBalanceHistoryQuery): Promise<TBalanceHistory> {
    const span = daySpan(query.from, query.to);
    const [opening, entries, now] = await Promise.all([
      this.repo.creditBalanceBefore(caller.accountId, span.from),
      this.repo.creditEntries(caller.accountId, span),
      this.repo.ledger.balance(caller.accountId, 'CREDIT'),
    ]);
    return {
      from: query.from,
      to: query.to,
      opening: Number(opening),
      points: entries.map((entry) => ({
        at: entry.createdAt.toISOString(),
        balance: Number(entry.balanceAfter),
        amount: Number(entry.amount),
        reason: entry.reason,
      })),
      balance: Number(now.balance),
      available: Number(now.available),
      floor: Number(now.floor),
    };
  }

  /** GET /usage/caps: every application of the account against its cap, this UTC month. */
  async caps(caller: Caller, now = new Date()): Promise<TSpendingCaps> {
    const month = monthOf(now).day;
    const rows = await this.repo.applicationsWithSpend(caller.accountId, month);
    return { month, applications: rows.map(toSpend) };
  }

  /**
   * PUT /usage/caps/{applicationId}: sets or removes the cap. A cap at or below this month's
   * spend answers REACHED, and the gateway refuses the application's calls from its next request
   * on this node (the change is announced at once; other nodes within their cache's lifetime).
   */
  async setCap(caller: Caller, applicationId: string, capCredits: number | null, now = new Date()) {
    const month = monthOf(now).day;
    const spend = await this.repo.transaction(async (repo) => {
      const application = await repo.application(caller.accountId, applicationId, { forUpdate: true });
      if (!application) throw notFound('APPLICATION_NOT_FOUND');
      await repo.setCap(application.id, capCredits === null ? null : creditsToMicro(capCredits));
      const [row] = await repo.applicationsWithSpend(caller.accountId, month, application.id);
      // A cap at or below what the month used: its calls are refused from now on, so no flush
      // will bring the alert — it is given here.
      await repo.capAlerts(this.events, { applicationId: application.id, month, monthMicro: row!.usedMicro });
      return toSpend(row!);
    });
    this.onCapChanged(applicationId);
    return spend;
  }

  private async requireApplication(caller: Caller, applicationId: string): Promise<void> {
    // Another account's application answers as an unknown one does: its existence is not told.
    if (!(await this.repo.application(caller.accountId, applicationId))) throw notFound('APPLICATION_NOT_FOUND');
  }
}

function toSpend(row: {
  id: string;
  name: string;
  monthlyCapMicro: number | null;
  usedMicro: number;
}): TApplicationSpend {
  return {
    applicationId: row.id,
    name: row.name,
    monthlyCapCredits: row.monthlyCapMicro === null ? null : microToCredits(row.monthlyCapMicro),
    usedCredits: microToCredits(row.usedMicro),
    state: capState(row.usedMicro, row.monthlyCapMicro),
  };
}

/**
 * The UTC day the available credits are used up at `perDay` credits a day: today when none are
 * left; null when nothing is being used or they last past the month's end.
 */
export function runOutDay(available: number, perDay: number, now: Date, monthEnd: Date): string | null {
  if (available <= 0) return isoDay(now);
  if (perDay <= 0) return null;
  const at = new Date(now.getTime() + (available / perDay) * DAY_MS);
  return at.getTime() < monthEnd.getTime() ? isoDay(at) : null;
}
