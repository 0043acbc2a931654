import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './client.ts';
import {
  PLAN_SEED_CHANGES,
  PLAN_SEED_CHANGES_SETTING,
  PLAN_SEEDS,
  PLAN_SEEDS_SETTING,
  seedPlans,
} from './seed-plans.ts';
import { seedReferenceData } from './seed.ts';
import { appSettings, creditBundles, ratePlans } from './schema/index.ts';
import { createTestDatabase } from './testing.ts';

/*
 * The plan seed runs at every start whose seeds changed (seed.ts); staff own the catalogue once it
 * is seeded (issue 33 §3): what they edited, retired or deleted stays so.
 */
describe('the plan seed', () => {
  let dbh: DbHandle;
  beforeAll(async () => {
    dbh = await createTestDatabase();
    // A template database may predate the record of seeded codes: this run makes it.
    await seedPlans(dbh.db);
  });
  afterAll(() => dbh?.close());

  const plan = async (code: string) => (await dbh.db.select().from(ratePlans).where(eq(ratePlans.code, code)))[0];
  const bundles = async (code: string) =>
    dbh.db
      .select({ credits: creditBundles.credits, priceUsdCents: creditBundles.priceUsdCents })
      .from(creditBundles)
      .innerJoin(ratePlans, eq(ratePlans.id, creditBundles.ratePlanId))
      .where(eq(ratePlans.code, code))
      .orderBy(asc(creditBundles.credits));
  /** The next start with changed seeds: the whole reference seed runs again. */
  const startWithNewSeeds = async () => {
    await dbh.db
      .update(appSettings)
      .set({ value: 'an older seed' })
      .where(eq(appSettings.key, 'reference-data-seeded'));
    await seedReferenceData(dbh.db);
  };

  it('keeps what staff edited, retired and deleted when the seeds run again', async () => {
    const advance = (await plan('annual-advance'))!;
    await dbh.db
      .update(ratePlans)
      .set({ name: 'Gold by staff', feeGbpMinor: 123_400 })
      .where(eq(ratePlans.id, advance.id));
    await dbh.db
      .delete(creditBundles)
      .where(and(eq(creditBundles.ratePlanId, advance.id), eq(creditBundles.credits, 1_000)));
    await dbh.db
      .update(creditBundles)
      .set({ credits: 6_000 })
      .where(and(eq(creditBundles.ratePlanId, advance.id), eq(creditBundles.credits, 5_000)));
    await dbh.db.update(ratePlans).set({ isActive: false }).where(eq(ratePlans.code, 'payg-advance'));
    await dbh.db.delete(ratePlans).where(eq(ratePlans.code, 'annual-standard'));

    await startWithNewSeeds();

    expect(await plan('annual-advance')).toMatchObject({ name: 'Gold by staff', feeGbpMinor: 123_400 });
    expect((await bundles('annual-advance')).map((bundle) => bundle.credits)).toEqual([6_000, 10_000, 50_000]);
    expect(await plan('payg-advance')).toMatchObject({ isActive: false });
    expect(await plan('annual-standard')).toBeUndefined();
  });

  it('inserts a new seeded plan once, with its bundles, and never again once deleted', async () => {
    const platinum = { ...PLAN_SEEDS[3]!, code: 'annual-platinum', name: 'Annual Subscription — Platinum' };
    await seedPlans(dbh.db, [...PLAN_SEEDS, platinum]);
    expect(await plan('annual-platinum')).toMatchObject({ name: platinum.name, isActive: true });
    expect(await bundles('annual-platinum')).toHaveLength(4);
    await seedPlans(dbh.db, [...PLAN_SEEDS, platinum]);
    expect(await bundles('annual-platinum')).toHaveLength(4);

    await dbh.db.delete(ratePlans).where(eq(ratePlans.code, 'annual-platinum'));
    await seedPlans(dbh.db, [...PLAN_SEEDS, platinum]);
    expect(await plan('annual-platinum')).toBeUndefined();
    const [mark] = await dbh.db.select().from(appSettings).where(eq(appSettings.key, PLAN_SEEDS_SETTING));
    expect(JSON.parse(mark!.value)).toContain('annual-platinum');
  });

  it('gives a database seeded before the record its missing plans once', async () => {
    await dbh.db.delete(appSettings).where(eq(appSettings.key, PLAN_SEEDS_SETTING));
    await dbh.db.delete(ratePlans).where(eq(ratePlans.code, 'payg-standard'));
    await seedPlans(dbh.db);
    expect(await plan('payg-standard')).toMatchObject({ isActive: true });
    // Staff-deleted before this run (annual-standard, first test) is back too: the record did not exist.
    expect(await bundles('annual-standard')).toHaveLength(4);
    await dbh.db.delete(ratePlans).where(eq(ratePlans.code, 'payg-standard'));
    await seedPlans(dbh.db);
    expect(await plan('payg-standard')).toBeUndefined();
  });
});

/*
 * The seed's later offers on plans a database already has (PLAN_SEED_CHANGES): the upfront period
 * of issue 35 §5 reaches a database seeded before it, once, and never over what staff set.
 */
describe('the plan seed’s changes', () => {
  let dbh: DbHandle;
  beforeAll(async () => {
    dbh = await createTestDatabase();
  });
  afterAll(() => dbh?.close());

  const upfrontOf = async (code: string) =>
    (await dbh.db.select({ months: ratePlans.upfrontMonths }).from(ratePlans).where(eq(ratePlans.code, code)))[0]
      ?.months;
  const setUpfront = (code: string, months: number | null) =>
    dbh.db.update(ratePlans).set({ upfrontMonths: months }).where(eq(ratePlans.code, code));
  const forgetChanges = () => dbh.db.delete(appSettings).where(eq(appSettings.key, PLAN_SEED_CHANGES_SETTING));

  it('a new database offers the first 6 months of the annual standard plan upfront, and no other plan', async () => {
    await seedPlans(dbh.db);
    expect(await upfrontOf('annual-standard')).toBe(6);
    for (const code of ['payg-standard', 'payg-advance', 'annual-advance']) expect(await upfrontOf(code)).toBeNull();
    expect(PLAN_SEEDS.find((seed) => seed.code === 'annual-standard')?.upfrontMonths).toBe(6);
  });

  it('reaches a database seeded before it once; staff undoing it or setting their own stays so', async () => {
    // A database seeded before the change: the plan without the offer, the change not recorded.
    await setUpfront('annual-standard', null);
    await forgetChanges();
    await seedPlans(dbh.db);
    expect(await upfrontOf('annual-standard')).toBe(6);
    const [mark] = await dbh.db.select().from(appSettings).where(eq(appSettings.key, PLAN_SEED_CHANGES_SETTING));
    expect(JSON.parse(mark!.value)).toEqual(PLAN_SEED_CHANGES.map((change) => change.id));

    // Staff withdraw the offer: the next start leaves it withdrawn.
    await setUpfront('annual-standard', null);
    await seedPlans(dbh.db);
    expect(await upfrontOf('annual-standard')).toBeNull();

    // Staff had set an offer of their own before the change arrived: theirs stays.
    await setUpfront('annual-standard', 12);
    await forgetChanges();
    await seedPlans(dbh.db);
    expect(await upfrontOf('annual-standard')).toBe(12);
    // Applied twice: still once (the record holds each id once).
    await seedPlans(dbh.db);
    const [again] = await dbh.db.select().from(appSettings).where(eq(appSettings.key, PLAN_SEED_CHANGES_SETTING));
    expect(JSON.parse(again!.value)).toEqual(PLAN_SEED_CHANGES.map((change) => change.id));
  });
});
