import { z } from 'zod';

/*
 * Numbers on the wire (issue 27 §3, §4). A JSON body carries numbers as numbers: `z.number()`,
 * never `z.coerce.number()`, which turns `""`, `null`, `[]` and `false` into 0, `"0x10"` into 16
 * and `"1e3"` into 1000. Query strings and path parameters arrive as text, so they are read with
 * `ZQueryInt`: decimal digits only. And every amount has the largest value its column can hold.
 */

/** The largest value of a PostgreSQL `integer` column (money in minor units, credits, counts). */
export const MAX_INT32 = 2_147_483_647;

/** A whole amount of money or credits stored in an `integer` column: 0 or more, at most MAX_INT32. */
export const ZInt32Amount = z.number().int().min(0).max(MAX_INT32);

/**
 * A whole number written in a query string or path: decimal digits only (no sign, spaces,
 * exponent, hex or empty text), then checked as a number. `min`/`max` bound it; an optional
 * parameter is `ZQueryInt(...).optional()` or `.default(n)` on the object's field.
 */
export function ZQueryInt({ min = 0, max = MAX_INT32 }: { min?: number; max?: number } = {}) {
  return z
    .string()
    .regex(/^\d{1,10}$/, 'Expected a whole number.')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/**
 * A zero-based page number in a query string: decimal digits, or a negative one (a page before
 * the first), which is read as 0 — the lists' rule (spec §4). Anything else is a 400.
 */
export const ZQueryPage = z
  .string()
  .regex(/^-?\d{1,20}$/, 'Expected a whole number.')
  .transform((text) => Math.min(Math.max(0, Number(text)), MAX_INT32));

/**
 * A whole number typed into a form field, as text: decimal digits (a minus sign before them, for
 * the field to say it cannot be negative), with thousands separators when `separators`
 * (`1,000,000`), blanks around; NaN for anything else (`0x10`, `1e3`, `1.5`), which the field's
 * number schema refuses with its own message. Forms only: a JSON body sends the number itself.
 */
export function wholeNumberFromText(text: string, separators = false): number {
  const trimmed = text.trim();
  const digits = separators && /^-?\d{1,3}(,\d{3})+$/.test(trimmed) ? trimmed.replaceAll(',', '') : trimmed;
  return /^-?\d{1,16}$/.test(digits) ? Number(digits) : Number.NaN;
}
