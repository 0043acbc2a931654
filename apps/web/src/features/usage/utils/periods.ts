import type { TUsageReportQuery } from '@connect/shared';

/** The periods of the toolbar: the last 24 hours by hour; the others by day. */
export const USAGE_PERIODS = ['24h', '7d', '30d', 'month'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];
export const DEFAULT_PERIOD: UsagePeriod = '7d';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A UTC day as the API takes it (YYYY-MM-DD). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isUsagePeriod(value: string | null): value is UsagePeriod {
  return (USAGE_PERIODS as readonly string[]).includes(value ?? '');
}

/**
 * A period as the report's query and the bucket starts its charts show, oldest first. The API
 * counts in UTC hours and days, so the periods are UTC too: "Last 24 hours" asks for yesterday and
 * today by hour and keeps the 24 hours ending with the current one.
 */
export function usageWindow(
  period: UsagePeriod,
  applicationId: string | undefined,
  now: number = Date.now(),
): { query: TUsageReportQuery; starts: number[] } {
  const today = Date.parse(utcDay(now));
  const base = applicationId ? { applicationId } : {};
  if (period === '24h') {
    const currentHour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const starts = Array.from({ length: 24 }, (_, i) => currentHour - (23 - i) * HOUR_MS);
    return { query: { from: utcDay(starts[0]!), to: utcDay(now), granularity: 'hour', ...base }, starts };
  }
  const first =
    period === 'month'
      ? Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1)
      : today - (period === '7d' ? 6 : 29) * DAY_MS;
  const starts: number[] = [];
  for (let day = first; day <= today; day += DAY_MS) starts.push(day);
  return { query: { from: utcDay(first), to: utcDay(today), granularity: 'day', ...base }, starts };
}
