import { ZSubscriptionTier, type TSubscriptionTier } from '@connect/shared';

/*
 * Subscription tiers as GET /management/subscription-tiers answers them (issue 33 §3), parsed by
 * the shared schema: a fixture the server could not send fails here, not in a page.
 */

const ALLOWANCES = { applications: 5, tokens: 10, bridges: 5, blockchains: 3, mainnets: 1, testnets: 5, rateLimit: 25 };

/** Pay as you go, on sale, in use by accounts and orders. */
export const PAYG_TIER: TSubscriptionTier = ZSubscriptionTier.parse({
  id: '7c000000-0000-4000-8000-000000000001',
  code: 'payg-standard',
  name: 'Pay as you go — Standard',
  type: 'PAY_AS_YOU_GO',
  tier: 'standard',
  productId: 'prod_payg_standard',
  shortDescription: 'Pay monthly for the credits you use.',
  fullDescription: 'No fee: the credits you use are billed at the end of each month.',
  order: 1,
  feeGbpMinor: 0,
  qntPrice: null,
  creditPriceUsdCents: 120,
  upfrontMonths: null,
  paymentMethods: ['FIAT', 'QNT'],
  allowances: ALLOWANCES,
  creditBundles: [],
  retired: false,
  usage: { accounts: 12, orders: 30 },
  createdAt: '2026-10-01T00:00:00.000Z',
});

/** The annual subscription, on sale, one of its bundles ordered. */
export const ANNUAL_TIER: TSubscriptionTier = ZSubscriptionTier.parse({
  ...PAYG_TIER,
  id: '7c000000-0000-4000-8000-000000000002',
  code: 'annual-standard',
  name: 'Annual Subscription — Standard',
  type: 'SUBSCRIPTION',
  productId: 'prod_annual_standard',
  shortDescription: 'One annual fee, credits bought in bundles.',
  fullDescription: 'Billed annually in advance.',
  order: 2,
  feeGbpMinor: 600_000,
  qntPrice: '75000000000000000000',
  creditPriceUsdCents: null,
  paymentMethods: ['QNT', 'BANK_TRANSFER', 'FIAT'],
  allowances: { ...ALLOWANCES, blockchains: 0 },
  creditBundles: [
    { id: '7d000000-0000-4000-8000-000000000001', credits: 1_000, priceUsdCents: 110_000, isOrdered: true },
    { id: '7d000000-0000-4000-8000-000000000002', credits: 5_000, priceUsdCents: 525_000, isOrdered: false },
  ],
  usage: { accounts: 3, orders: 4 },
});

/** A retired tier nothing uses: it can be deleted. */
export const RETIRED_TIER: TSubscriptionTier = ZSubscriptionTier.parse({
  ...ANNUAL_TIER,
  id: '7c000000-0000-4000-8000-000000000003',
  code: 'annual-gold',
  name: 'Annual — Gold',
  order: 3,
  creditBundles: [],
  retired: true,
  usage: { accounts: 0, orders: 0 },
});

export const TIERS = [PAYG_TIER, ANNUAL_TIER, RETIRED_TIER];
