import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatGbpUnitPrice, formatNumber, formatRateBp } from './format.ts';

describe('formatDate', () => {
  it('writes en-GB dates with dots', () => {
    expect(formatDate(new Date(2026, 10, 22, 9, 30))).toBe('22.11.2026');
    expect(formatDate(new Date(2026, 0, 5))).toBe('05.01.2026');
  });

  it('reads ISO strings', () => {
    // Midday UTC is the same calendar day in every time zone a CI machine uses.
    expect(formatDate('2026-10-01T12:00:00.000Z')).toBe('01.10.2026');
  });

  it('shows a dash for missing or unreadable values', () => {
    expect(formatDate(null)).toBe('–');
    expect(formatDate(undefined)).toBe('–');
    expect(formatDate('not a date')).toBe('–');
  });
});

describe('formatDateTime', () => {
  it('adds the 24-hour local time', () => {
    expect(formatDateTime(new Date(2026, 10, 22, 14, 5))).toBe('22.11.2026, 14:05');
    expect(formatDateTime(new Date(2026, 10, 22, 0, 0))).toBe('22.11.2026, 00:00');
  });

  it('names the local time zone when asked', () => {
    const date = new Date(2026, 10, 22, 14, 5);
    const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' })
      .formatToParts(date)
      .find((part) => part.type === 'timeZoneName')!.value;
    expect(formatDateTime(date, { withZone: true })).toBe(`22.11.2026, 14:05 ${zone}`);
  });

  it('shows a dash for unreadable values', () => {
    expect(formatDateTime('nope')).toBe('–');
    expect(formatDateTime('nope', { withZone: true })).toBe('–');
  });
});

describe('formatNumber', () => {
  it('groups thousands', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1,000');
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(-25000)).toBe('-25,000');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(formatNumber(10n ** 12n)).toBe('1,000,000,000,000');
  });

  it('shows a dash for missing values', () => {
    expect(formatNumber(null)).toBe('–');
    expect(formatNumber(Number.NaN)).toBe('–');
  });
});

describe('formatGbpUnitPrice', () => {
  it('shows pounds with two to four decimals and thousands separators', () => {
    expect(formatGbpUnitPrice('0.9449')).toBe('£0.9449');
    expect(formatGbpUnitPrice('6000')).toBe('£6,000.00');
    expect(formatGbpUnitPrice('1.5')).toBe('£1.50');
  });

  it('shows a dash for missing or unreadable values', () => {
    expect(formatGbpUnitPrice(null)).toBe('–');
    expect(formatGbpUnitPrice('abc')).toBe('–');
  });
});

describe('formatRateBp', () => {
  it('writes basis points as a percentage', () => {
    expect(formatRateBp(2000)).toBe('20 %');
    expect(formatRateBp(2550)).toBe('25.5 %');
    expect(formatRateBp(0)).toBe('0 %');
  });
});
