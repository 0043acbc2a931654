import type { TUsageBucket, TUsageReport } from '@connect/shared';

/*
 * The report's buckets turned into what the charts and the table show. Credits are summed in
 * micro-credits (integers), so adding up thousands of 0.0001-credit reads does not drift.
 */

const toMicro = (credits: number) => Math.round(credits * 1_000_000);
const fromMicro = (micro: number) => micro / 1_000_000;

/** The series that gathers everything outside the top few. */
export const OTHER = '__other__';
/** Deployments are the account's, not an application's: their series and rows. */
export const DEPLOYMENTS = '__deployments__';

export type StackedSeries = { key: string; data: number[] };

/** The buckets the window shows (the last 24 hours leave out the day before's earlier hours). */
export function bucketsInWindow(report: TUsageReport, starts: number[]): TUsageBucket[] {
  const first = starts[0] ?? -Infinity;
  return report.buckets.filter((bucket) => Date.parse(bucket.start) >= first);
}

/** Zero-filled stacked series: one per key of the top `limit` by total, then one for the rest. */
function stacked(
  buckets: TUsageBucket[],
  starts: number[],
  keyOf: (bucket: TUsageBucket) => string,
  valueOf: (bucket: TUsageBucket) => number,
  limit: number,
): StackedSeries[] {
  const index = new Map(starts.map((start, i) => [start, i]));
  const totals = new Map<string, number>();
  for (const bucket of buckets) totals.set(keyOf(bucket), (totals.get(keyOf(bucket)) ?? 0) + valueOf(bucket));
  const ranked = [...totals.entries()]
    .filter(([, total]) => total > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key]) => key);
  // With one key too many, that key has its own series rather than an "Other" of one.
  const top = new Set(ranked.length > limit + 1 ? ranked.slice(0, limit) : ranked);
  const series = new Map<string, number[]>(
    [...top, ...(ranked.length > top.size ? [OTHER] : [])].map((key) => [key, starts.map(() => 0)]),
  );
  for (const bucket of buckets) {
    const i = index.get(Date.parse(bucket.start));
    const key = keyOf(bucket);
    const data = series.get(top.has(key) ? key : OTHER);
    if (i === undefined || !data) continue;
    data[i] = data[i]! + valueOf(bucket);
  }
  return [...series.entries()].map(([key, data]) => ({ key, data }));
}

/** Gateway calls per bucket by JSON-RPC method (deployments are not calls). */
export function callsByMethod(buckets: TUsageBucket[], starts: number[], limit = 5): StackedSeries[] {
  return stacked(
    buckets.filter((bucket) => bucket.methodClass !== 'deployment'),
    starts,
    (bucket) => bucket.method,
    (bucket) => bucket.calls,
    limit,
  );
}

/** Credits per bucket by application, deployments as their own series. */
export function creditsByApplication(buckets: TUsageBucket[], starts: number[], limit = 5): StackedSeries[] {
  return stacked(
    buckets,
    starts,
    (bucket) => bucket.applicationId ?? DEPLOYMENTS,
    (bucket) => toMicro(bucket.credits),
    limit,
  ).map((series) => ({ key: series.key, data: series.data.map(fromMicro) }));
}

export type BreakdownRow = {
  key: string;
  applicationId: string | null;
  networkId: string | null;
  method: string;
  isDeployment: boolean;
  calls: number;
  credits: number;
  /** The row's part of the window's credits, 0 to 1. */
  share: number;
};

/** Where the credits went: one row per application, network and method of the window. */
export function breakdown(buckets: TUsageBucket[]): { rows: BreakdownRow[]; calls: number; credits: number } {
  const rows = new Map<string, Omit<BreakdownRow, 'share' | 'credits'> & { micro: number }>();
  let totalMicro = 0;
  let totalCalls = 0;
  for (const bucket of buckets) {
    const isDeployment = bucket.methodClass === 'deployment';
    const key = [bucket.applicationId ?? '', bucket.networkId ?? '', isDeployment ? DEPLOYMENTS : bucket.method].join(
      '|',
    );
    const row = rows.get(key) ?? {
      key,
      applicationId: bucket.applicationId,
      networkId: bucket.networkId,
      method: bucket.method,
      isDeployment,
      calls: 0,
      micro: 0,
    };
    row.calls += bucket.calls;
    row.micro += toMicro(bucket.credits);
    rows.set(key, row);
    totalMicro += toMicro(bucket.credits);
    totalCalls += bucket.calls;
  }
  return {
    rows: [...rows.values()].map(({ micro, ...row }) => ({
      ...row,
      credits: fromMicro(micro),
      share: totalMicro > 0 ? micro / totalMicro : 0,
    })),
    calls: totalCalls,
    credits: fromMicro(totalMicro),
  };
}
