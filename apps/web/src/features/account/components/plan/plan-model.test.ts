import { describe, expect, it } from 'vitest';
import { reasonKey } from './plan-model';

describe('reasonKey', () => {
  const known = (keys: string[]) => (key: string) => keys.includes(key);
  const keys = known(['ACTIVE_RENEWAL_DUE', 'ACTIVE_RENEWAL_DUE_PAY_AS_YOU_GO', 'ACTIVE_TRIAL']);
  const plan = (type: 'TRIAL' | 'PAY_AS_YOU_GO' | 'SUBSCRIPTION') => ({ type });

  it('says what a pay-as-you-go RENEWAL_DUE is: its month’s bill', () => {
    expect(reasonKey({ status: 'ACTIVE', statusReason: 'RENEWAL_DUE', plan: plan('PAY_AS_YOU_GO') }, keys)).toBe(
      'ACTIVE_RENEWAL_DUE_PAY_AS_YOU_GO',
    );
    expect(reasonKey({ status: 'ACTIVE', statusReason: 'RENEWAL_DUE', plan: plan('SUBSCRIPTION') }, keys)).toBe(
      'ACTIVE_RENEWAL_DUE',
    );
  });

  it('falls back to the status and its reason, then the status', () => {
    expect(reasonKey({ status: 'ACTIVE', statusReason: 'TRIAL', plan: plan('TRIAL') }, keys)).toBe('ACTIVE_TRIAL');
    expect(reasonKey({ status: 'INACTIVE', statusReason: 'CANCELLED', plan: plan('SUBSCRIPTION') }, keys)).toBe(
      'INACTIVE',
    );
    expect(reasonKey({ status: 'ACTIVE', statusReason: null, plan: plan('SUBSCRIPTION') }, keys)).toBe('ACTIVE');
  });
});
