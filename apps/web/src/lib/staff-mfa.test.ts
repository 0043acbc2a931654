import { describe, expect, it } from 'vitest';
import { mustSetUpMfa } from './staff-mfa.ts';

describe('staff MFA requirement (issue 32 §1)', () => {
  it('asks staff without a confirmed authenticator to set one up, and nobody else', () => {
    const off = { mfaSetup: false, mfaConfirm: false };
    const setUpOnly = { mfaSetup: true, mfaConfirm: false };
    const on = { mfaSetup: true, mfaConfirm: true };
    expect(mustSetUpMfa({ role: 'QUANT_ADMIN', ...off })).toBe(true);
    expect(mustSetUpMfa({ role: 'QUANT_SALES', ...setUpOnly })).toBe(true);
    expect(mustSetUpMfa({ role: 'QUANT_ADMIN', ...on })).toBe(false);
    for (const role of ['INDIVIDUAL', 'SME', 'INSTITUTION'] as const)
      expect(mustSetUpMfa({ role, ...off })).toBe(false);
  });
});
