/**
 * Display formatting of spec §9: dates in en-GB form with dots (22.11.2026), numbers grouped
 * with thousands separators (1,234,567). Everything shown to a user goes through here.
 */

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
const zonedTimeFormat = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZoneName: 'short',
});
const numberFormat = new Intl.NumberFormat('en-GB');

function toDate(value: Date | string | number): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 22.11.2026 (local time); an unreadable value is shown as a dash rather than "Invalid Date". */
export function formatDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '–';
  const date = toDate(value);
  return date ? dateFormat.format(date).replaceAll('/', '.') : '–';
}

/**
 * 22.11.2026, 14:05 (local time, 24-hour clock). `withZone` names the zone (22.11.2026, 14:05 GMT;
 * 15:05 CET, 09:05 GMT-5 elsewhere) for a deadline the customer may set beside an email's times,
 * which name theirs.
 */
export function formatDateTime(
  value: Date | string | number | null | undefined,
  { withZone = false }: { withZone?: boolean } = {},
): string {
  if (value === null || value === undefined || value === '') return '–';
  const date = toDate(value);
  return date ? `${formatDate(date)}, ${(withZone ? zonedTimeFormat : timeFormat).format(date)}` : '–';
}

/** 1,234,567 — integers and decimals alike, in en-GB grouping. */
export function formatNumber(value: number | bigint | null | undefined): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number' && !Number.isFinite(value)) return '–';
  return numberFormat.format(value);
}

const unitPriceGbp = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/**
 * A unit price in pounds as the invoices carry it, a decimal string that need not be whole pence:
 * "0.9449" → £0.9449, "6000" → £6,000.00 (at most four decimals, as the catalogue prices them).
 */
export function formatGbpUnitPrice(pounds: string | null | undefined): string {
  if (pounds === null || pounds === undefined || pounds.trim() === '') return '–';
  const value = Number(pounds);
  return Number.isFinite(value) ? unitPriceGbp.format(value) : '–';
}

/** A rate in basis points as a percentage: 2000 → "20 %", 2550 → "25.5 %" (the space of en-GB typography in the spec's texts). */
export function formatRateBp(basisPoints: number): string {
  return `${numberFormat.format(basisPoints / 100)} %`;
}
