/**
 * Display formatting of spec §9: dates in en-GB form with dots (22.11.2026), numbers grouped
 * with thousands separators (1,234,567). Everything shown to a user goes through here.
 */

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric' });
const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false });
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

/** 22.11.2026, 14:05 (local time, 24-hour clock). */
export function formatDateTime(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '–';
  const date = toDate(value);
  return date ? `${formatDate(date)}, ${timeFormat.format(date)}` : '–';
}

/** 1,234,567 — integers and decimals alike, in en-GB grouping. */
export function formatNumber(value: number | bigint | null | undefined): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number' && !Number.isFinite(value)) return '–';
  return numberFormat.format(value);
}
