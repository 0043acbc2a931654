/*
 * The usage page's own formats, beside lib/format.ts (spec §9: en-GB, dates with dots). Buckets
 * are UTC hours and days, so their labels are in UTC: a day shows as the day it counts, wherever
 * the reader is.
 */

const small = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4 });
const large = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const utcDate = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});
const utcDayMonth = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', timeZone: 'UTC' });
const utcHour = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'UTC',
});
const utcMonth = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Credits with thousands separators: four decimals below 10 (a read costs 0.0001), two above,
 * where the fourth decimal would only be noise. The CSV export carries the exact figures.
 */
export function formatCredits(value: number): string {
  return (Math.abs(value) < 10 ? small : large).format(value);
}

/** 0.425 → 42.5% */
export function formatShare(value: number): string {
  return percent.format(value);
}

/** 23.11.2026 (UTC) */
export function formatUtcDate(value: number | string): string {
  return utcDate.format(new Date(value)).replaceAll('/', '.');
}

/** 23.11 (UTC): a day on an axis. */
export function formatUtcDayMonth(value: number | string): string {
  return utcDayMonth.format(new Date(value)).replaceAll('/', '.');
}

/** 14:00 (UTC): an hour on an axis. */
export function formatUtcHour(value: number | string): string {
  return utcHour.format(new Date(value));
}

/** November 2026 */
export function formatUtcMonth(value: number | string): string {
  return utcMonth.format(new Date(value));
}

/** A bucket's start in full: the day, or the day and hour. */
export function formatBucket(value: number, granularity: 'hour' | 'day'): string {
  return granularity === 'hour' ? `${formatUtcDate(value)}, ${formatUtcHour(value)} UTC` : formatUtcDate(value);
}

/** A bucket's start on an axis: 23.11 or 14:00. */
export function formatBucketTick(value: number, granularity: 'hour' | 'day'): string {
  return granularity === 'hour' ? formatUtcHour(value) : formatUtcDayMonth(value);
}
