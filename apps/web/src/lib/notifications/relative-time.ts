import { formatDate } from '../format.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When a notification came, as the list says it: an i18n key with a count for the last week
 * ("just now", "5 min ago", "3 h ago", "2 days ago"), the en-GB date with dots before that.
 * A time slightly in the future (clocks differ) is "just now".
 */
export type RelativeTime = { key: 'justNow' | 'minutesAgo' | 'hoursAgo' | 'daysAgo'; count: number } | { date: string };

export function relativeTime(value: string | Date, now: Date): RelativeTime {
  const then = value instanceof Date ? value : new Date(value);
  const elapsed = now.getTime() - then.getTime();
  if (elapsed < MINUTE) return { key: 'justNow', count: 0 };
  if (elapsed < HOUR) return { key: 'minutesAgo', count: Math.floor(elapsed / MINUTE) };
  if (elapsed < DAY) return { key: 'hoursAgo', count: Math.floor(elapsed / HOUR) };
  if (elapsed < 7 * DAY) return { key: 'daysAgo', count: Math.floor(elapsed / DAY) };
  return { date: formatDate(then) };
}
