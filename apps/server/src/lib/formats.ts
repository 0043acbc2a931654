/*
 * Money, counts and dates in words for emails and documents: spec §9 — en-GB dates with dots,
 * numbers grouped by thousands. Dates are read in the UK's time zone, where the pounds are.
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
/** 10000 → '10,000' (a bigint too). */
export const formatCount = (count: number | bigint) => COUNT.format(count);

const WEI_PER_QNT = 10n ** 18n;

/** Wei as QNT, grouped by thousands, up to six decimals (rounded down): 75500000000000000000n → '75.5 QNT'. */
export function formatQnt(wei: bigint | string): string {
  const value = BigInt(wei);
  const whole = value / WEI_PER_QNT;
  const micro = (value % WEI_PER_QNT) / 10n ** 12n;
  const fraction = micro === 0n ? '' : `.${micro.toString().padStart(6, '0').replace(/0+$/, '')}`;
  return `${formatCount(whole)}${fraction} QNT`;
}
