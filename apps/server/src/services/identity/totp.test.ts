import { describe, expect, it } from 'vitest';
import { generateTotpSecret, matchTotpStep, totpCodeAt } from './totp.ts';

describe('TOTP (RFC 6238)', () => {
  const secret = generateTotpSecret();
  const now = new Date('2030-06-01T12:00:10Z');
  const step = Math.floor(now.getTime() / 30_000);
  const at = (steps: number) => new Date(now.getTime() + steps * 30_000);

  it('accepts the current code and one step either side, naming the step', () => {
    expect(matchTotpStep(secret, totpCodeAt(secret, now), now)).toBe(step);
    expect(matchTotpStep(secret, totpCodeAt(secret, at(-1)), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCodeAt(secret, at(1)), now)).toBe(step + 1);
  });

  it('refuses codes two steps away, from another secret, or not six digits', () => {
    for (const code of [totpCodeAt(secret, at(-2)), totpCodeAt(secret, at(2))]) {
      // Two codes of different steps can coincide (1 in a million); skip that case rather than flake.
      if ([-1, 0, 1].some((s) => totpCodeAt(secret, at(s)) === code)) continue;
      expect(matchTotpStep(secret, code, now)).toBeNull();
    }
    const other = generateTotpSecret();
    const foreign = totpCodeAt(other, now);
    if (![-1, 0, 1].some((s) => totpCodeAt(secret, at(s)) === foreign)) {
      expect(matchTotpStep(secret, foreign, now)).toBeNull();
    }
    expect(matchTotpStep(secret, '12345', now)).toBeNull();
    expect(matchTotpStep(secret, '12345a', now)).toBeNull();
  });

  it('makes 160-bit base32 secrets', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpSecret()).not.toBe(secret);
  });
});
