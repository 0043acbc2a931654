/*
 * How orders put dates and money into words (invoice lines, emails): spec §9 — en-GB dates with
 * dots, numbers grouped by thousands. Dates are read in the UK's time zone, where the pounds are.
 */

import { formatDate } from '../../lib/formats.ts';

export { formatCount, formatDate, formatDollars, formatPounds, formatQnt } from '../../lib/formats.ts';

/** The words of a plan's line on its invoice: 'Annual Subscription — Standard, 12 months from 07.03.2025'. */
export function planLine(planName: string, months: number, from: Date): string {
  return `${planName}, ${months} ${months === 1 ? 'month' : 'months'} from ${formatDate(from)}`;
}

const TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** '14:05 GMT' (UK time). */
export const formatTime = (date: Date | string) => TIME.format(new Date(date));
