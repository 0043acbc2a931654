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
