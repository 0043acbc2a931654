import { describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARDS } from '@connect/shared';
import {
  cardDetailsSchema,
  formatCardNumber,
  formatExpiry,
  isExpired,
  isLuhnValid,
  parseExpiry,
} from './card-details.ts';

const MESSAGES = {
  numberRequired: 'number required',
  numberIncomplete: 'number incomplete',
  numberInvalid: 'number invalid',
  expiryRequired: 'expiry required',
  expiryIncomplete: 'expiry incomplete',
  expiryMonthInvalid: 'month invalid',
  expiryPast: 'expiry past',
  cvcRequired: 'cvc required',
  cvcIncomplete: 'cvc incomplete',
};
const NOW = new Date('2026-11-20T10:00:00Z');
const errorsOf = (values: { number: string; expiry: string; cvc: string }) => {
  const result = cardDetailsSchema(MESSAGES, () => NOW).safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));
};

describe('card details', () => {
  it('passes every test card through the Luhn check and refuses a mistyped digit', () => {
    for (const card of SANDBOX_TEST_CARDS) expect(isLuhnValid(card.number)).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
  });

  it('formats the number in groups of four and the expiry as MM / YY while typing', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-42')).toBe('4242 42');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('1229')).toBe('12 / 29');
    expect(formatExpiry('12 / 2')).toBe('12 / 2');
    expect(parseExpiry('12 / 29')).toEqual({ month: 12, year: 2029 });
    expect(parseExpiry('12 / 2')).toBeNull();
  });

  it('counts a card valid until the end of its expiry month', () => {
    expect(isExpired({ month: 11, year: 2026 }, NOW)).toBe(false);
    expect(isExpired({ month: 10, year: 2026 }, NOW)).toBe(true);
    expect(isExpired({ month: 1, year: 2027 }, NOW)).toBe(false);
  });

  it('gives one message a field, the first that applies', () => {
    expect(errorsOf({ number: '', expiry: '', cvc: '' })).toEqual({
      number: 'number required',
      expiry: 'expiry required',
      cvc: 'cvc required',
    });
    expect(errorsOf({ number: '4242 4242', expiry: '1', cvc: '12' })).toEqual({
      number: 'number incomplete',
      expiry: 'expiry incomplete',
      cvc: 'cvc incomplete',
    });
    expect(errorsOf({ number: '4242 4242 4242 4241', expiry: '13 / 29', cvc: '123' })).toEqual({
      number: 'number invalid',
      expiry: 'month invalid',
    });
    expect(errorsOf({ number: '4242 4242 4242 4242', expiry: '10 / 26', cvc: '1234' })).toEqual({
      expiry: 'expiry past',
    });
    expect(errorsOf({ number: '4242 4242 4242 4242', expiry: '11 / 26', cvc: '123' })).toEqual({});
  });
});
