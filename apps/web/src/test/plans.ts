import type {
  TCreditBundlesResponse,
  TFetchPlansResponse,
  TOrder,
  TQntPayment,
  TRatePlan,
  TSubscription,
} from '@connect/shared';

/**
 * The plans of the tests, as the account-plan service answers them: the seeded catalogue
 * (packages/db seed-plans.ts), its credit bundles, an account's subscription on the trial, the
 * annual standard plan and pay as you go, and its orders. Tests spread them with what their case needs.
 */

const TRIAL_ALLOWANCES = {
  applications: 3,
  tokens: 5,
  bridges: 2,
  blockchains: 0,
  mainnets: 0,
  testnets: 10,
  rateLimit: 25,
};

export const PAYG_STANDARD: TRatePlan = {
  id: '10000000-0000-4000-8000-000000000001',
  code: 'payg-standard',
  type: 'PAY_AS_YOU_GO',
  tier: 'standard',
  name: 'Pay as you go — Standard',
  productId: 'prod_payg_standard',
  shortDescription: 'Pay monthly for the credits you use.',
  fullDescription: 'No fee.',
  order: 1,
  billing: 'MONTHLY',
  feeGbpMinor: 0,
  qntPrice: null,
  creditPriceUsdCents: 120,
  upfrontMonths: null,
  paymentMethods: ['FIAT', 'QNT'],
  allowances: { applications: 5, tokens: 10, bridges: 5, blockchains: 3, mainnets: 1, testnets: 5, rateLimit: 25 },
  hasCreditBundles: false,
};

export const PAYG_ADVANCE: TRatePlan = {
  ...PAYG_STANDARD,
  id: '10000000-0000-4000-8000-000000000002',
  code: 'payg-advance',
  tier: 'advance',
  name: 'Pay as you go — Advance',
  order: 2,
  creditPriceUsdCents: 115,
  allowances: { applications: 20, tokens: 50, bridges: 20, blockchains: 0, mainnets: 5, testnets: 20, rateLimit: 100 },
};

export const ANNUAL_STANDARD: TRatePlan = {
  ...PAYG_STANDARD,
  id: '10000000-0000-4000-8000-000000000003',
  code: 'annual-standard',
  type: 'SUBSCRIPTION',
  tier: 'standard',
  name: 'Annual Subscription — Standard',
  shortDescription: 'One annual fee, credits bought in bundles.',
  order: 3,
  billing: 'ANNUAL',
  feeGbpMinor: 600_000,
  qntPrice: '75000000000000000000',
  creditPriceUsdCents: null,
  paymentMethods: ['QNT', 'BANK_TRANSFER', 'FIAT'],
  allowances: { applications: 10, tokens: 25, bridges: 10, blockchains: 5, mainnets: 3, testnets: 10, rateLimit: 50 },
  hasCreditBundles: true,
};

export const ANNUAL_ADVANCE: TRatePlan = {
  ...ANNUAL_STANDARD,
  id: '10000000-0000-4000-8000-000000000004',
  code: 'annual-advance',
  tier: 'advance',
  name: 'Annual Subscription — Advance',
  order: 4,
  feeGbpMinor: 1_800_000,
  allowances: {
    applications: 50,
    tokens: 100,
    bridges: 50,
    blockchains: 0,
    mainnets: 10,
    testnets: 50,
    rateLimit: 200,
  },
};

/** GET /v2/fetch-plans. */
export const CATALOGUE: TFetchPlansResponse = {
  groups: [
    { type: 'PAY_AS_YOU_GO', name: 'Pay as you go', billing: 'MONTHLY', tiers: [PAYG_STANDARD, PAYG_ADVANCE] },
    { type: 'SUBSCRIPTION', name: 'Annual Subscription', billing: 'ANNUAL', tiers: [ANNUAL_STANDARD, ANNUAL_ADVANCE] },
  ],
};

/** GET /rate-plan/{annual standard}/credit-bundles. */
export const BUNDLES: TCreditBundlesResponse = {
  ratePlanId: ANNUAL_STANDARD.id,
  bundles: [
    { id: '20000000-0000-4000-8000-000000000001', credits: 1_000, priceUsdCents: 110_000, unitPriceUsdCents: 110 },
    { id: '20000000-0000-4000-8000-000000000002', credits: 5_000, priceUsdCents: 525_000, unitPriceUsdCents: 105 },
  ],
};

/** A rate plan as the subscription names it. */
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

/** GET /subscription of an account on its free trial (started 01.11.2026, ends 01.12.2026), some of it used. */
export const TRIAL: TSubscription = {
  plan: {
    id: '10000000-0000-4000-8000-000000000000',
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
  allowances: TRIAL_ALLOWANCES,
  usage: { applications: 1, tokens: 2, bridges: 0, blockchains: 2, mainnets: 0, testnets: 3 },
  credits: { available: 100, balance: 100, floor: 0 },
  lowCredits: false,
  pendingOrder: null,
  openOrders: [],
  availablePaymentMethods: ['BANK_TRANSFER'],
};

/** The annual standard plan, twelve months paid upfront, renewing on 10.11.2027; it sells credit bundles. */
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

/** Pay as you go (advance), with its credit limit of 1,000 credits below zero. */
export const PAYG: TSubscription = {
  ...ANNUAL,
  plan: planOf(PAYG_ADVANCE),
  periodEnd: '2026-12-10T10:00:00.000Z',
  upfrontMonths: null,
  allowances: PAYG_ADVANCE.allowances,
  credits: { available: 1040, balance: 40, floor: -1000 },
};

/** The bank-transfer order of the annual standard plan with the 1,000-credit bundle (at $1.25 a pound). */
export const ORDER: TOrder = {
  id: '30000000-0000-4000-8000-000000000001',
  reference: 'CNX-7K2M9QXA',
  kind: 'PLAN',
  status: 'AWAITING_PAYMENT',
  paymentMethod: 'BANK_TRANSFER',
  ratePlan: { id: ANNUAL_STANDARD.id, name: ANNUAL_STANDARD.name },
  upfrontMonths: null,
  bundle: { id: BUNDLES.bundles[0]!.id, credits: 1_000, priceUsdCents: 110_000 },
  feeGbpMinor: 600_000,
  bundleUsdCents: 110_000,
  usdPerGbp: '1.25',
  rateAt: '2026-11-20T10:00:00.000Z',
  totalGbpMinor: 688_000,
  paidGbpMinor: 0,
  periodStart: null,
  periodEnd: null,
  dueAt: '2026-12-04T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  paidAt: null,
  invoiceId: '40000000-0000-4000-8000-000000000001',
  bankTransfer: {
    accountName: 'Connect Sandbox Ltd (sample account)',
    bankName: 'Sandbox Bank plc',
    sortCode: '00-00-00',
    accountNumber: '00000000',
    iban: 'GB00SAND00000000000000',
    bic: 'SANDGB2L',
    reference: 'CNX-7K2M9QXA',
    amountGbpMinor: 688_000,
    dueAt: '2026-12-04T10:00:00.000Z',
  },
};

/** A pay-as-you-go order: nothing to pay, paid at once. */
export const PAYG_ORDER: TOrder = {
  ...ORDER,
  id: '30000000-0000-4000-8000-000000000002',
  reference: 'CNX-PAYG0001',
  status: 'PAID',
  paymentMethod: 'FIAT',
  ratePlan: { id: PAYG_STANDARD.id, name: PAYG_STANDARD.name },
  bundle: null,
  feeGbpMinor: 0,
  bundleUsdCents: 0,
  totalGbpMinor: 0,
  paidAt: '2026-11-20T10:00:00.000Z',
  bankTransfer: null,
};

/** A credit top-up of the 5,000-credit bundle by bank transfer (at $1.27 a pound), beside the annual plan. */
export const CREDITS_ORDER: TOrder = {
  ...ORDER,
  id: '30000000-0000-4000-8000-000000000003',
  reference: 'CNX-CR3D1TS0',
  kind: 'CREDITS',
  ratePlan: null,
  bundle: { id: BUNDLES.bundles[1]!.id, credits: 5_000, priceUsdCents: 525_000 },
  feeGbpMinor: 0,
  bundleUsdCents: 525_000,
  usdPerGbp: '1.27',
  totalGbpMinor: 413_386,
  bankTransfer: { ...ORDER.bankTransfer!, reference: 'CNX-CR3D1TS0', amountGbpMinor: 413_386 },
};

/** A whole number of QNT in wei (QNT has 18 decimals). */
export const qnt = (amount: number | string) => {
  const [whole = '0', fraction = ''] = String(amount).split('.');
  return (BigInt(whole) * 10n ** 18n + BigInt(fraction.padEnd(18, '0').slice(0, 18) || '0')).toString();
};

/** The QNT side of ORDER paid in QNT: £6,880.00 at £80 a QNT is 86 QNT, quoted for 30 minutes on the local chain. */
export const QNT_PAYMENT: TQntPayment = {
  status: 'NEW',
  reason: null,
  chainId: 31337,
  networkName: 'Ethereum Testnet (local)',
  tokenAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  depositAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  amountDue: qnt(86),
  gbpPerQnt: '80.00',
  rateAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2026-11-20T10:30:00.000Z',
  paid: '0',
  transfers: [],
  settledAt: null,
};

/** ORDER (the annual standard plan with the 1,000-credit bundle) paid in QNT from the wallet. */
export const QNT_ORDER: TOrder = {
  ...ORDER,
  id: '30000000-0000-4000-8000-000000000004',
  reference: 'CNX-QNT00001',
  paymentMethod: 'QNT',
  bankTransfer: null,
  qnt: QNT_PAYMENT,
};

/** A transfer to the deposit address the chain follower has seen. */
export const TRANSFER = {
  txHash: `0x${'ab'.repeat(32)}`,
  amount: qnt(86),
  status: 'PROCESSING' as const,
  confirmations: 1,
  confirmationsRequired: 3,
  seenAt: '2026-11-20T10:05:00.000Z',
};
