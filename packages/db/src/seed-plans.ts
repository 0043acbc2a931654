import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from './client.ts';
import { appSettings, creditBundles, ratePlans } from './schema/index.ts';

const WEI_PER_QNT = 10n ** 18n;

export type PlanSeed = Omit<typeof ratePlans.$inferInsert, 'id' | 'createdAt' | 'isActive'>;

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
      'Billed annually in advance, or start with the first 6 months paid upfront. Pre-purchase credit bundles on a sliding scale, from $1.10 a credit including VAT.',
    sortOrder: 3,
    feeGbpMinor: 600_000,
    qntPrice: 75n * WEI_PER_QNT,
    creditPriceUsdCents: null,
    // The upfront period option (spec doc 2 §2, 'first {duration} months upfront'): a first
    // period of 6 months for half the annual fee, then yearly renewals (PLAN_SEED_CHANGES).
    upfrontMonths: 6,
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

/** Where the database records the codes of the plans the seed has inserted (JSON array). */
export const PLAN_SEEDS_SETTING = 'plan-seeds-applied';

/**
 * What later versions of the seed offer on a plan a database already has, each by its own id:
 * made once in the life of the database and only where staff have not set that field themselves
 * (a plan inserted with the offer already has it). Like the seeded plans, a change staff undo
 * stays undone.
 */
export const PLAN_SEED_CHANGES: readonly { id: string; code: string; upfrontMonths: number }[] = [
  // Issue 35 §5: the annual standard plan offers its first 6 months upfront.
  { id: 'annual-standard-upfront-6', code: 'annual-standard', upfrontMonths: 6 },
];

/** Where the database records the ids of the seed's changes it has made (JSON array). */
export const PLAN_SEED_CHANGES_SETTING = 'plan-seed-changes-applied';

/**
 * Inserts each seeded plan once in the life of the database, with its credit bundles, and never
 * touches it again: staff own the catalogue from then on (issue 33 §3). A plan staff edited keeps
 * their edit, one they retired stays retired, one they deleted is not put back (its code stays in
 * the record below), and bundles are only ever added with their new plan. A database seeded
 * before the record existed had every seeded plan that it has now (staff could not delete one
 * then), so its missing codes are inserted once as before.
 */
export async function seedPlans(
  db: Database,
  seeds: readonly PlanSeed[] = PLAN_SEEDS,
  changes: typeof PLAN_SEED_CHANGES = PLAN_SEED_CHANGES,
): Promise<void> {
  const applied = await recorded(db, PLAN_SEEDS_SETTING);
  const missing = seeds.filter((seed) => !applied.has(seed.code));
  if (missing.length > 0) await insertPlans(db, seeds, missing, applied);
  await applyChanges(db, changes);
}

async function recorded(db: Database, key: string): Promise<Set<string>> {
  const [mark] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key));
  return new Set<string>(mark ? (JSON.parse(mark.value) as string[]) : []);
}

async function record(db: Database, key: string, values: Iterable<string>): Promise<void> {
  const value = JSON.stringify([...new Set(values)].sort());
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
}

async function insertPlans(
  db: Database,
  seeds: readonly PlanSeed[],
  missing: readonly PlanSeed[],
  applied: Set<string>,
): Promise<void> {
  // One transaction: a plan is never left without its bundles. Two nodes starting at once: the
  // code is unique, so only one inserts a plan and its bundles.
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(ratePlans)
      .values([...missing])
      .onConflictDoNothing()
      .returning({ id: ratePlans.id, type: ratePlans.type });
    for (const plan of inserted.filter((row) => row.type === 'SUBSCRIPTION')) {
      await tx
        .insert(creditBundles)
        .values(BUNDLE_SEEDS.map((bundle, sortOrder) => ({ ...bundle, ratePlanId: plan.id, sortOrder })))
        .onConflictDoNothing();
    }
    await record(tx, PLAN_SEEDS_SETTING, [...applied, ...seeds.map((seed) => seed.code)]);
  });
}

/** The seed's changes not made yet: each offered where the plan has no offer of its own, then recorded. */
async function applyChanges(db: Database, changes: typeof PLAN_SEED_CHANGES): Promise<void> {
  const made = await recorded(db, PLAN_SEED_CHANGES_SETTING);
  const pending = changes.filter((change) => !made.has(change.id));
  if (pending.length === 0) return;
  await db.transaction(async (tx) => {
    for (const change of pending) {
      await tx
        .update(ratePlans)
        .set({ upfrontMonths: change.upfrontMonths })
        .where(and(eq(ratePlans.code, change.code), isNull(ratePlans.upfrontMonths)));
    }
    await record(tx, PLAN_SEED_CHANGES_SETTING, [...made, ...pending.map((change) => change.id)]);
  });
}
