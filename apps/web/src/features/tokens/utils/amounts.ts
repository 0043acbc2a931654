import { formatNumber } from '../../../lib/format.ts';

/**
 * A base-unit amount (digits) as whole tokens with thousands separators (spec §9):
 * "1234500000000000000000" with 18 decimals → "1,234.5". Exact for any size (bigint, no floats).
 */
export function formatTokenAmount(baseUnits: string | bigint | null | undefined, decimals: number): string {
  if (baseUnits === null || baseUnits === undefined || baseUnits === '') return '–';
  let value: bigint;
  try {
    value = typeof baseUnits === 'bigint' ? baseUnits : BigInt(baseUnits);
  } catch {
    return '–';
  }
  const negative = value < 0n;
  if (negative) value = -value;
  const scale = 10n ** BigInt(Math.max(0, decimals));
  const whole = value / scale;
  const fraction = decimals > 0 ? (value % scale).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${formatNumber(whole)}${fraction ? `.${fraction}` : ''}`;
}

/** Whole tokens typed by a user → base units; null unless a whole number greater than 0. */
export function wholeTokensToBaseUnits(text: string, decimals: number): bigint | null {
  const trimmed = text.trim().replaceAll(',', '');
  if (!/^\d+$/.test(trimmed)) return null;
  const whole = BigInt(trimmed);
  if (whole <= 0n) return null;
  return whole * 10n ** BigInt(Math.max(0, decimals));
}
