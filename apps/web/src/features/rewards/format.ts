import { qntToWei } from '@connect/shared';
import { exactQnt, formatQnt } from '../../lib/plans/money.ts';

/*
 * What rewards show, formatted: QNT as decimal strings ("2", "0.5"; at most 18 decimals, as the
 * contract carries them), compared as wei (bigint, exact) and shown through the portal's one QNT
 * format; campaign days as spec §9's dates.
 */

/** "1234.5" as wei; 0 for a text the contract would never send (so a figure shows, not an error). */
export function weiOf(qnt: string): bigint {
  return qntToWei(qnt) ?? 0n;
}

/** "1234.5" → "1,234.5 QNT" (grouped, at most six decimals, rounded down). */
export function formatRewardQnt(qnt: string): string {
  return formatQnt(weiOf(qnt));
}

const grouping = new Intl.NumberFormat('en-GB');

/**
 * Every decimal, grouped: "1234.123456789" → "1,234.123456789 QNT". The claim's summary repeats the
 * amount exactly as it will be sent: rounding there would hide what the customer typed.
 */
export function formatExactQnt(qnt: string): string {
  const [whole = '0', fraction] = exactQnt(weiOf(qnt)).split('.');
  return `${grouping.format(BigInt(whole))}${fraction ? `.${fraction}` : ''} QNT`;
}

/**
 * A campaign's day ("2026-12-01", a UTC day, both ends included) as spec §9 shows dates: 01.12.2026.
 * Read as text, not as a time: a browser west of UTC would otherwise show the day before.
 */
export function formatCampaignDay(day: string): string {
  const [year, month, date] = day.split('-');
  return year && month && date ? `${date}.${month}.${year}` : '–';
}
