import { describe, expect, it } from 'vitest';
import { exactQnt, formatGbpPerQnt, formatQnt } from './money.ts';

describe('QNT amounts', () => {
  it('shows wei as QNT with thousands separators and at most six decimals', () => {
    expect(formatQnt('86000000000000000000')).toBe('86 QNT');
    expect(formatQnt('1234500000000000000000')).toBe('1,234.5 QNT');
    expect(formatQnt('1234567891234567890123456')).toBe('1,234,567.891234 QNT');
    expect(formatQnt('0')).toBe('0 QNT');
    expect(formatQnt(1n)).toBe('0 QNT');
  });

  it('rounds an amount to pay up, so sending the figure shown is never short', () => {
    expect(formatQnt('1000000000000000001', { round: 'up' })).toBe('1.000001 QNT');
    expect(formatQnt('999999999999999999999', { round: 'up' })).toBe('1,000 QNT');
    expect(formatQnt('86000000000000000000', { round: 'up' })).toBe('86 QNT');
  });

  it('gives the exact amount to paste, every decimal and no grouping', () => {
    expect(exactQnt('1234000000000000000001')).toBe('1234.000000000000000001');
    expect(exactQnt('86000000000000000000')).toBe('86');
    expect(exactQnt('500000000000000000')).toBe('0.5');
  });

  it('shows the rate in pounds', () => {
    expect(formatGbpPerQnt('80')).toBe('£80.00');
    expect(formatGbpPerQnt('1234.125')).toBe('£1,234.125');
  });
});
