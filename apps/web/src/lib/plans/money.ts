import { QNT_DECIMALS } from '@connect/shared';

/*
 * Money of the plans, orders and bundles as the portal shows it (spec §9: currency symbols $ and £,
 * numbers grouped by thousands). The contracts carry integers (pence, US cents); only here do they
 * become text.
 */

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const usd = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' });
/** A credit's price may carry a fraction of a cent (a bundle's unit price): up to four decimals. */
const usdUnit = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'USD',
  currencyDisplay: 'narrowSymbol',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/** 600000 pence → £6,000.00 */
export function formatGbp(pence: number): string {
  return gbp.format(pence / 100);
}

/** 110000 cents → $1,100.00 */
export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}

/** A price per credit: 110 cents → $1.10; 105.5 cents → $1.055. */
export function formatUsdPerCredit(cents: number): string {
  return usdUnit.format(cents / 100);
}

/*
 * QNT amounts travel in wei (decimal strings; QNT has QNT_DECIMALS = 18). They are shown with
 * thousands separators and at most six decimals; bigint arithmetic keeps them exact.
 */
const QNT_SHOWN_DECIMALS = 6;
const wholeQnt = new Intl.NumberFormat('en-GB');
const gbpRate = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

function qntParts(wei: bigint, decimals: number, round: 'down' | 'up'): { whole: bigint; fraction: string } {
  const step = 10n ** BigInt(QNT_DECIMALS - decimals);
  let units = wei / step;
  if (round === 'up' && wei % step !== 0n) units += 1n;
  const scale = 10n ** BigInt(decimals);
  const fraction = decimals === 0 ? '' : (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return { whole: units / scale, fraction };
}

/**
 * 1234500000000000000000 wei → "1,234.5 QNT". Rounded down by default (what someone holds or has
 * received is never overstated); an amount to pay is rounded up (`round: 'up'`), so sending the
 * figure shown is never short of what is due.
 */
export function formatQnt(wei: string | bigint, { round = 'down' }: { round?: 'down' | 'up' } = {}): string {
  const { whole, fraction } = qntParts(BigInt(wei), QNT_SHOWN_DECIMALS, round);
  return `${wholeQnt.format(whole)}${fraction ? `.${fraction}` : ''} QNT`;
}

/** The exact amount in QNT, without grouping or unit, to paste into an exchange or wallet: "1234.5". */
export function exactQnt(wei: string | bigint): string {
  const { whole, fraction } = qntParts(BigInt(wei), QNT_DECIMALS, 'down');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** The quote's rate: "80.125" → "£80.125 per QNT" (the "per QNT" is the caller's text). */
export function formatGbpPerQnt(gbpPerQnt: string): string {
  return gbpRate.format(Number(gbpPerQnt));
}
