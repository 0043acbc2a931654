import { eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { creditBundles, ratePlans } from './schema/index.ts';

const WEI_PER_QNT = 10n ** 18n;

type PlanSeed = Omit<typeof ratePlans.$inferInsert, 'id' | 'createdAt' | 'isActive'>;

/**
 * The plans `npm start` offers (docs/decisions/plans-and-orders.md, "The plan catalogue"): pay as you go (monthly,
 * credits billed at month end, at most $1.20 each) and the annual subscription (its fee in pounds
 * a year in advance, quoted in QNT too; credit bundles on a sliding scale, at most $1.10 a credit
 * including VAT), each in the tiers standard and advance.
 */
export const PLAN_SEEDS: readonly PlanSeed[] = [
  {
    code: 'payg-standard',
    type: 'PAY_AS_YOU_GO',
    tier: 'standard',
    name: 'Pay as you go — Standard',
    productId: 'prod_payg_standard',
    shortDescription: 'Pay monthly for the credits you use.',
    fullDescription:
      'No fee: the credits you use are billed at the end of each month, up to your credit limit. For teams starting on testnets and one mainnet.',
    sortOrder: 1,
    feeGbpMinor: 0,
    qntPrice: null,
    creditPriceUsdCents: 120,
    upfrontMonths: null,
    paymentMethods: ['FIAT', 'QNT'],
    applications: 5,
    tokens: 10,
    bridges: 5,
    blockchains: 3,
    mainnets: 1,
    testnets: 5,
    rateLimit: 25,
  },
  {
    code: 'payg-advance',
    type: 'PAY_AS_YOU_GO',
    tier: 'advance',
    name: 'Pay as you go — Advance',
    productId: 'prod_payg_advance',
    shortDescription: 'Monthly billing with room to grow.',
    fullDescription:
      'No fee: the credits you use are billed at the end of each month at a lower unit price, with every blockchain and more mainnets.',
    sortOrder: 2,
    feeGbpMinor: 0,
    qntPrice: null,
    creditPriceUsdCents: 115,
    upfrontMonths: null,
    paymentMethods: ['FIAT', 'QNT'],
    applications: 20,
    tokens: 50,
    bridges: 20,
    blockchains: 0,
    mainnets: 5,
    testnets: 20,
    rateLimit: 100,
  },
  {
    code: 'annual-standard',
    type: 'SUBSCRIPTION',
    tier: 'standard',
    name: 'Annual Subscription — Standard',
    productId: 'prod_annual_standard',
    shortDescription: 'One annual fee, credits bought in bundles.',
    fullDescription:
      'Billed annually in advance. Pre-purchase credit bundles on a sliding scale, from $1.10 a credit including VAT.',
    sortOrder: 3,
    feeGbpMinor: 600_000,
    qntPrice: 75n * WEI_PER_QNT,
    creditPriceUsdCents: null,
    upfrontMonths: null,
    paymentMethods: ['QNT', 'BANK_TRANSFER', 'FIAT'],
    applications: 10,
    tokens: 25,
    bridges: 10,
    blockchains: 5,
    mainnets: 3,
    testnets: 10,
    rateLimit: 50,
  },
  {
    code: 'annual-advance',
    type: 'SUBSCRIPTION',
    tier: 'advance',
    name: 'Annual Subscription — Advance',
    productId: 'prod_annual_advance',
    shortDescription: 'Every blockchain, the highest limits.',
    fullDescription:
      'Billed annually in advance, with every blockchain, ten mainnets and the highest rate limit. Pre-purchase credit bundles on a sliding scale.',
    sortOrder: 4,
    feeGbpMinor: 1_800_000,
    qntPrice: 225n * WEI_PER_QNT,
    creditPriceUsdCents: null,
    upfrontMonths: null,
    paymentMethods: ['QNT', 'BANK_TRANSFER', 'FIAT'],
    applications: 50,
    tokens: 100,
    bridges: 50,
    blockchains: 0,
    mainnets: 10,
    testnets: 50,
    rateLimit: 200,
  },
];

/** The annual plans' sliding scale: credits and the bundle's price including VAT, in US cents. */
export const BUNDLE_SEEDS: readonly { credits: number; priceUsdCents: number }[] = [
  { credits: 1_000, priceUsdCents: 110_000 },
  { credits: 5_000, priceUsdCents: 525_000 },
  { credits: 10_000, priceUsdCents: 1_000_000 },
  { credits: 50_000, priceUsdCents: 4_750_000 },
];

/** Inserts the plans and bundles that do not exist yet; rows staff changed are left alone. */
export async function seedPlans(db: Database): Promise<void> {
  await db
    .insert(ratePlans)
    .values([...PLAN_SEEDS])
    .onConflictDoNothing();
  for (const plan of PLAN_SEEDS.filter((seed) => seed.type === 'SUBSCRIPTION')) {
    const [row] = await db.select({ id: ratePlans.id }).from(ratePlans).where(eq(ratePlans.code, plan.code));
    if (!row) continue;
    await db
      .insert(creditBundles)
      .values(BUNDLE_SEEDS.map((bundle, sortOrder) => ({ ...bundle, ratePlanId: row.id, sortOrder })))
      .onConflictDoNothing();
  }
}
