/**
 * Currency conversion of orders (docs/decisions/plans-and-orders.md, "Orders and their prices"): the annual fee is priced in
 * pounds, credit bundles in US dollars, and an order is paid in pounds. The rate is a decimal
 * string (config `USD_PER_GBP`, later a price feed) stored with the order, so the conversion is
 * exact integer arithmetic and can be repeated from the order's own columns.
 */

/** A positive decimal string as an integer and its scale: '1.27' → { units: 127n, scale: 100n }. */
function parseRate(usdPerGbp: string): { units: bigint; scale: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(usdPerGbp.trim());
  if (!match) throw new RangeError(`Not a rate: ${usdPerGbp}`);
  const fraction = match[2] ?? '';
  const units = BigInt(`${match[1]}${fraction}`);
  if (units === 0n) throw new RangeError('A rate of 0 converts nothing.');
  return { units, scale: 10n ** BigInt(fraction.length) };
}

/** US cents in pence at `usdPerGbp` dollars a pound, rounded half up to the penny. */
export function usdCentsToPence(usdCents: number, usdPerGbp: string): number {
  if (!Number.isSafeInteger(usdCents) || usdCents < 0) throw new RangeError(`Not an amount: ${usdCents}`);
  const { units, scale } = parseRate(usdPerGbp);
  // pence = cents / (units / scale) = cents × scale / units, rounded half up.
  const numerator = BigInt(usdCents) * scale;
  return Number((numerator * 2n + units) / (units * 2n));
}

/** QNT has 18 decimals; a penny is a hundredth of a pound. */
const WEI_PER_QNT_PER_100 = 10n ** 16n;

/**
 * Pence in QNT wei at `gbpPerQnt` pounds a QNT, rounded up to the wei (the customer is asked for
 * at least the price): wei = pence × 10¹⁶ × scale / units.
 */
export function penceToQntWei(pence: number, gbpPerQnt: string): bigint {
  if (!Number.isSafeInteger(pence) || pence < 0) throw new RangeError(`Not an amount: ${pence}`);
  const { units, scale } = parseRate(gbpPerQnt);
  const numerator = BigInt(pence) * WEI_PER_QNT_PER_100 * scale;
  return (numerator + units - 1n) / units;
}
