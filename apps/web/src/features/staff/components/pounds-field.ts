import { MAX_INT32 } from '@connect/shared';
import { z } from 'zod';

const POUNDS = /^\d{1,8}(?:\.\d{1,2})?$/;

/** Pence from pounds as typed ("12", "12.5", "1,250.00"); NaN when it is not an amount of pounds and pence. */
export function penceFromPoundsText(text: string): number {
  const plain = text
    .trim()
    .replace(/^£/, '')
    .replace(/,(?=\d{3}(?:\D|$))/g, '');
  if (!POUNDS.test(plain)) return Number.NaN;
  const [pounds, pence = ''] = plain.split('.');
  return Number(pounds) * 100 + Number(pence.padEnd(2, '0'));
}

/** The pounds text a field starts from ("1250.00"). */
export function poundsTextOf(pence: number): string {
  return (pence / 100).toFixed(2);
}

/**
 * A form field of pounds as text, read into pence and checked against 1p…`maxPence`: text, not a
 * number input, so "1e3" or "12abc" show why they are refused.
 */
export function poundsField(messages: { invalid: string; tooLarge: (max: string) => string }, maxPence: number) {
  const max = Math.min(maxPence, MAX_INT32);
  return z
    .string()
    .transform(penceFromPoundsText)
    .pipe(
      z
        .number({ error: messages.invalid })
        .int({ error: messages.invalid })
        .min(1, { error: messages.invalid })
        .max(max, { error: messages.tooLarge(poundsTextOf(max)) }),
    );
}
