import { describe, expect, it } from 'vitest';
import {
  decimalTextFromUnits,
  subscriptionTierFormValues,
  unitsFromDecimalText,
  ZSubscriptionTier,
  ZSubscriptionTierForm,
  ZSubscriptionTierInput,
} from './subscription-tiers.ts';

const tier = ZSubscriptionTier.parse({
  id: '7c000000-0000-4000-8000-000000000002',
  code: 'annual-standard',
  name: 'Annual Subscription — Standard',
  type: 'SUBSCRIPTION',
  tier: 'standard',
  productId: null,
  shortDescription: 'One annual fee.',
  fullDescription: 'Billed annually in advance.',
  order: 3,
  feeGbpMinor: 600_050,
  qntPrice: '75500000000000000000',
  creditPriceUsdCents: null,
  upfrontMonths: 6,
  paymentMethods: ['QNT', 'BANK_TRANSFER'],
  allowances: { applications: 10, tokens: 25, bridges: 10, blockchains: 0, mainnets: 3, testnets: 10, rateLimit: 50 },
  creditBundles: [
    { id: '7d000000-0000-4000-8000-000000000001', credits: 1_000, priceUsdCents: 110_000, isOrdered: true },
  ],
  retired: false,
  usage: { accounts: 1, orders: 2 },
  createdAt: '2026-10-01T00:00:00.000Z',
});

describe('subscription tiers: the form and the request share their rules', () => {
  it('reads typed money exactly, in its smallest unit, and writes it back', () => {
    expect(unitsFromDecimalText('6,000.50', 2)).toBe(600_050n);
    expect(unitsFromDecimalText(' 1.2 ', 2)).toBe(120n);
    expect(unitsFromDecimalText('0.000000000000000001', 18)).toBe(1n);
    for (const bad of ['', '-1', '1e3', '1.234', '1,00', '0x10', '1.']) expect(unitsFromDecimalText(bad, 2)).toBeNull();
    expect(decimalTextFromUnits(600_050, 2, { fixed: true })).toBe('6000.50');
    expect(decimalTextFromUnits(75_500_000_000_000_000_000n, 18)).toBe('75.5');
  });

  it('turns a tier into the form’s text and back into the same request', () => {
    const values = subscriptionTierFormValues(tier);
    expect(values).toMatchObject({ feeGbpMinor: '6000.50', qntPrice: '75.5', upfrontMonths: '6', productId: '' });
    const { id: _id, code: _code, order: _order, retired: _retired, usage: _usage, createdAt: _at, ...input } = tier;
    expect(ZSubscriptionTierForm.parse(values)).toEqual({
      ...input,
      creditBundles: input.creditBundles.map(({ isOrdered: _ordered, ...bundle }) => bundle),
    });
  });

  it('holds each plan type to its rules, beside the fields’ own errors', () => {
    const payg = ZSubscriptionTierInput.safeParse({
      ...subscriptionTierFormValues(tier),
      ...ZSubscriptionTierForm.parse(subscriptionTierFormValues(tier)),
      type: 'PAY_AS_YOU_GO',
      name: '',
    });
    expect(payg.success).toBe(false);
    expect(payg.error!.issues.map((issue) => issue.path.join('.')).sort()).toEqual(
      [
        'creditBundles',
        'creditPriceUsdCents',
        'feeGbpMinor',
        'name',
        'paymentMethods',
        'qntPrice',
        'upfrontMonths',
      ].sort(),
    );
  });
});
