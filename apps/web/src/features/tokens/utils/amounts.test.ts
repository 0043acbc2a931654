import { describe, expect, it } from 'vitest';
import { formatTokenAmount, wholeTokensToBaseUnits } from './amounts.ts';

describe('token amounts', () => {
  it('shows base units as whole tokens with separators, exactly', () => {
    expect(formatTokenAmount('1234500000000000000000', 18)).toBe('1,234.5');
    expect(formatTokenAmount('1000000000000000000000000000', 18)).toBe('1,000,000,000');
    expect(formatTokenAmount('42', 0)).toBe('42');
    expect(formatTokenAmount(null, 18)).toBe('–');
  });

  it('turns typed whole tokens into base units and refuses anything else', () => {
    expect(wholeTokensToBaseUnits('250', 18)).toBe(250n * 10n ** 18n);
    expect(wholeTokensToBaseUnits('1,000', 2)).toBe(100000n);
    expect(wholeTokensToBaseUnits('0', 18)).toBeNull();
    expect(wholeTokensToBaseUnits('1.5', 18)).toBeNull();
    expect(wholeTokensToBaseUnits('-3', 0)).toBeNull();
  });
});
