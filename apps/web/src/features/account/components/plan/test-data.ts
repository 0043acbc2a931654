import type { TCreditBundlesResponse, TFetchPlansResponse, TOrder, TRatePlan, TSubscription } from '@connect/shared';

/** GET /subscription, /v2/fetch-plans and credit bundles as the server answers them, for the plan section's tests. */

const ALLOWANCES = { applications: 3, tokens: 5, bridges: 2, blockchains: 0, mainnets: 0, testnets: 10, rateLimit: 25 };

export const TRIAL: TSubscription = {
  plan: {
    id: '00000000-0000-4000-8000-0000000000a0',
    code: 'trial',
    name: 'Trial',
    type: 'TRIAL',
    tier: 'standard',
    billing: 'TRIAL',
    feeGbpMinor: 0,
    creditPriceUsdCents: null,
  },
  status: 'ACTIVE',
  statusReason: 'TRIAL',
  inService: true,
  startedAt: '2026-11-01T10:00:00.000Z',
  periodEnd: null,
  trialEndsAt: '2026-12-01T10:00:00.000Z',
  upfrontMonths: null,
  cancelAtPeriodEnd: false,
  nextPlan: null,
  allowances: ALLOWANCES,
  usage: { applications: 1, tokens: 2, bridges: 0, blockchains: 2, mainnets: 0, testnets: 3 },
  credits: { available: 100, balance: 100, floor: 0 },
  lowCredits: false,
  pendingOrder: null,
  openOrders: [],
  availablePaymentMethods: ['BANK_TRANSFER'],
};

const ratePlan = (
  overrides: Partial<TRatePlan> & Pick<TRatePlan, 'id' | 'code' | 'type' | 'tier' | 'name'>,
): TRatePlan => ({
  productId: null,
  shortDescription: '',
  fullDescription: '',
  order: 0,
  billing: overrides.type === 'SUBSCRIPTION' ? 'ANNUAL' : 'MONTHLY',
  feeGbpMinor: 0,
  qntPrice: null,
  creditPriceUsdCents: null,
  upfrontMonths: null,
  paymentMethods: ['QNT', 'FIAT'],
  allowances: ALLOWANCES,
  hasCreditBundles: false,
  ...overrides,
});

export const PAYG_STANDARD = ratePlan({
  id: '00000000-0000-4000-8000-0000000000b1',
  code: 'payg-standard',
  type: 'PAY_AS_YOU_GO',
  tier: 'standard',
  name: 'Pay as you go Standard',
  creditPriceUsdCents: 120,
  allowances: { ...ALLOWANCES, applications: 5, tokens: 10 },
});
export const PAYG_ADVANCE = ratePlan({
  id: '00000000-0000-4000-8000-0000000000b2',
  code: 'payg-advance',
  type: 'PAY_AS_YOU_GO',
  tier: 'advance',
  name: 'Pay as you go Advance',
  creditPriceUsdCents: 115,
  allowances: { ...ALLOWANCES, applications: 10, tokens: 20 },
});
export const ANNUAL_STANDARD = ratePlan({
  id: '00000000-0000-4000-8000-0000000000c1',
  code: 'annual-standard',
  type: 'SUBSCRIPTION',
  tier: 'standard',
  name: 'Annual Standard',
  feeGbpMinor: 600_000,
  paymentMethods: ['QNT', 'BANK_TRANSFER', 'FIAT'],
  hasCreditBundles: true,
  allowances: { ...ALLOWANCES, applications: 20, tokens: 50, mainnets: 2 },
});

export const PLANS: TFetchPlansResponse = {
  groups: [
    { type: 'PAY_AS_YOU_GO', name: 'Pay as you go', billing: 'MONTHLY', tiers: [PAYG_STANDARD, PAYG_ADVANCE] },
    { type: 'SUBSCRIPTION', name: 'Annual Subscription', billing: 'ANNUAL', tiers: [ANNUAL_STANDARD] },
  ],
};

export const BUNDLES: TCreditBundlesResponse = {
  ratePlanId: ANNUAL_STANDARD.id,
  bundles: [
    { id: '00000000-0000-4000-8000-0000000000d1', credits: 1000, priceUsdCents: 110_000, unitPriceUsdCents: 110 },
    { id: '00000000-0000-4000-8000-0000000000d2', credits: 5000, priceUsdCents: 525_000, unitPriceUsdCents: 105 },
  ],
};

const planOf = (plan: TRatePlan): TSubscription['plan'] => ({
  id: plan.id,
  code: plan.code,
  name: plan.name,
  type: plan.type,
  tier: plan.tier,
  billing: plan.billing,
  feeGbpMinor: plan.feeGbpMinor,
  creditPriceUsdCents: plan.creditPriceUsdCents,
});

export const ANNUAL: TSubscription = {
  ...TRIAL,
  plan: planOf(ANNUAL_STANDARD),
  statusReason: null,
  startedAt: '2026-11-10T10:00:00.000Z',
  periodEnd: '2027-11-10T10:00:00.000Z',
  trialEndsAt: null,
  upfrontMonths: 12,
  allowances: ANNUAL_STANDARD.allowances,
  credits: { available: 5100, balance: 5100, floor: 0 },
};

export const PAYG: TSubscription = {
  ...ANNUAL,
  plan: planOf(PAYG_ADVANCE),
  periodEnd: '2026-12-10T10:00:00.000Z',
  upfrontMonths: null,
  allowances: PAYG_ADVANCE.allowances,
  credits: { available: 1040, balance: 40, floor: -1000 },
};

export const ORDER: TOrder = {
  id: '00000000-0000-4000-8000-0000000000e1',
  reference: 'CNX-7K2M9QXR',
  kind: 'PLAN',
  status: 'AWAITING_PAYMENT',
  paymentMethod: 'BANK_TRANSFER',
  ratePlan: { id: ANNUAL_STANDARD.id, name: ANNUAL_STANDARD.name },
  upfrontMonths: null,
  bundle: null,
  feeGbpMinor: 600_000,
  bundleUsdCents: 0,
  usdPerGbp: '1.27',
  rateAt: '2026-11-20T10:00:00.000Z',
  totalGbpMinor: 600_000,
  paidGbpMinor: 0,
  periodStart: null,
  periodEnd: null,
  dueAt: '2026-12-04T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  paidAt: null,
  invoiceId: '00000000-0000-4000-8000-0000000000f1',
  bankTransfer: {
    accountName: 'Quant Network Ltd (sample account)',
    bankName: 'Sample Bank plc',
    sortCode: '00-00-00',
    accountNumber: '12345678',
    iban: 'GB00SAMP00000012345678',
    bic: 'SAMPGB2L',
    reference: 'CNX-7K2M9QXR',
    amountGbpMinor: 600_000,
    dueAt: '2026-12-04T10:00:00.000Z',
  },
};

export const CREDITS_ORDER: TOrder = {
  ...ORDER,
  id: '00000000-0000-4000-8000-0000000000e2',
  reference: 'CNX-CR3D1TS0',
  kind: 'CREDITS',
  ratePlan: null,
  bundle: { id: BUNDLES.bundles[1]!.id, credits: 5000, priceUsdCents: 525_000 },
  feeGbpMinor: 0,
  bundleUsdCents: 525_000,
  totalGbpMinor: 413_386,
  bankTransfer: { ...ORDER.bankTransfer!, reference: 'CNX-CR3D1TS0', amountGbpMinor: 413_386 },
};
