import { z } from 'zod';

/*
 * The card details the sandbox's form takes, checked as Stripe's card fields check them before
 * anything is sent: a number that passes the Luhn check, an expiry date not in the past, a 3 or
 * 4 digit security code. Stripe's own form (stripe mode) does this itself.
 */

export const digitsOf = (value: string) => value.replace(/\D/g, '');

/** The Luhn checksum every card number carries. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The number as typed, in groups of four ("4242 4242 4242 4242"), at most 19 digits. */
export function formatCardNumber(value: string): string {
  return digitsOf(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The expiry as typed, "MM / YY": the separator appears once the month is complete. */
export function formatExpiry(value: string): string {
  const digits = digitsOf(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** Month and four-digit year of a complete "MM / YY", else null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const digits = digitsOf(value);
  if (digits.length !== 4) return null;
  return { month: Number(digits.slice(0, 2)), year: 2000 + Number(digits.slice(2)) };
}

/** A card is valid until the end of its expiry month. */
export function isExpired(expiry: { month: number; year: number }, now = new Date()): boolean {
  return expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1);
}

export type CardFieldMessages = {
  numberRequired: string;
  numberIncomplete: string;
  numberInvalid: string;
  expiryRequired: string;
  expiryIncomplete: string;
  expiryMonthInvalid: string;
  expiryPast: string;
  cvcRequired: string;
  cvcIncomplete: string;
};

/** The form's schema, with the page's words for each refusal (one message a field, the first that applies). */
export function cardDetailsSchema(messages: CardFieldMessages, now: () => Date = () => new Date()) {
  return z.object({
    number: z.string().superRefine((value, ctx) => {
      const digits = digitsOf(value);
      const message = !digits
        ? messages.numberRequired
        : digits.length < 12
          ? messages.numberIncomplete
          : !isLuhnValid(digits)
            ? messages.numberInvalid
            : null;
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
    expiry: z.string().superRefine((value, ctx) => {
      const expiry = parseExpiry(value);
      const message = !digitsOf(value)
        ? messages.expiryRequired
        : !expiry
          ? messages.expiryIncomplete
          : expiry.month < 1 || expiry.month > 12
            ? messages.expiryMonthInvalid
            : isExpired(expiry, now())
              ? messages.expiryPast
              : null;
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
    cvc: z.string().superRefine((value, ctx) => {
      const message = !value ? messages.cvcRequired : !/^\d{3,4}$/.test(value) ? messages.cvcIncomplete : null;
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  });
}
export type CardDetails = z.infer<ReturnType<typeof cardDetailsSchema>>;

/** The form's values as the sandbox takes them. */
export function cardOf(values: CardDetails) {
  const expiry = parseExpiry(values.expiry)!;
  return { number: digitsOf(values.number), expMonth: expiry.month, expYear: expiry.year, cvc: values.cvc };
}
