/*
 * How orders put dates and money into words (invoice lines, emails): spec §9 — en-GB dates with
 * dots, numbers grouped by thousands. Dates are read in the UK's time zone, where the pounds are.
 */

const DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/** 2025-03-07 → '07.03.2025'. */
export function formatDate(date: Date | string): string {
  return DATE.format(new Date(date)).replaceAll('/', '.');
}

const GROUPED = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const COUNT = new Intl.NumberFormat('en-GB');

/** Pence as pounds: 600000 → '£6,000.00'. */
export const formatPounds = (pence: number) => `£${GROUPED.format(pence / 100)}`;
/** US cents as dollars: 110000 → '$1,100.00'. */
export const formatDollars = (cents: number) => `$${GROUPED.format(cents / 100)}`;
/** 10000 → '10,000'. */
export const formatCount = (count: number) => COUNT.format(count);

/** The words of a plan's line on its invoice: 'Annual Subscription — Standard, 12 months from 07.03.2025'. */
export function planLine(planName: string, months: number, from: Date): string {
  return `${planName}, ${months} ${months === 1 ? 'month' : 'months'} from ${formatDate(from)}`;
}

const WEI_PER_QNT = 10n ** 18n;

/** Wei as QNT, grouped by thousands, up to six decimals (rounded down): 75500000000000000000n → '75.5 QNT'. */
export function formatQnt(wei: bigint | string): string {
  const value = BigInt(wei);
  const whole = value / WEI_PER_QNT;
  const micro = (value % WEI_PER_QNT) / 10n ** 12n;
  const fraction = micro === 0n ? '' : `.${micro.toString().padStart(6, '0').replace(/0+$/, '')}`;
  return `${COUNT.format(whole)}${fraction} QNT`;
}

const TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** '14:05 GMT' (UK time). */
export const formatTime = (date: Date | string) => TIME.format(new Date(date));
