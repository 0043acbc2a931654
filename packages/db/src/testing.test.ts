import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DbHandle } from './client.ts';
import { LATEST_TERMS, seedReferenceData } from './seed.ts';
import {
  appSettings,
  contentUpdates,
  creditBundles,
  footerSections,
  ratePlans,
  roles,
  termsVersions,
} from './schema/index.ts';
import { createTestDatabase } from './testing.ts';

describe('test databases', () => {
  let first: DbHandle;
  let second: DbHandle;
  beforeAll(async () => {
    [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('start migrated and seeded with the latest terms, roles and content', async () => {
    const terms = await first.db.select().from(termsVersions);
    expect(terms.map((t) => t.version)).toEqual([LATEST_TERMS.version]);
    expect((await first.db.select().from(roles)).map((r) => r.name).sort()).toEqual([
      'INDIVIDUAL',
      'INSTITUTION',
      'QUANT_ADMIN',
      'QUANT_SALES',
      'SME',
    ]);
    expect(await first.db.select().from(footerSections)).toHaveLength(5);
  });

  it('are isolated from each other', async () => {
    await first.db.delete(contentUpdates);
    expect(await first.db.select().from(contentUpdates)).toHaveLength(0);
    expect((await second.db.select().from(contentUpdates)).length).toBeGreaterThan(0);
  });

  it('seeding again changes nothing', async () => {
    const before = await second.db.select().from(contentUpdates);
    await seedReferenceData(second.db);
    expect(await second.db.select().from(contentUpdates)).toHaveLength(before.length);
    const [terms] = await second.db.select().from(termsVersions).where(eq(termsVersions.version, LATEST_TERMS.version));
    expect(terms?.title).toBe(LATEST_TERMS.title);
  });

  it('a database seeded with these seeds is not seeded again at the next start, even where a table was emptied', async () => {
    await second.db.delete(contentUpdates);
    await seedReferenceData(second.db);
    expect(await second.db.select().from(contentUpdates)).toHaveLength(0);
  });

  it('a database seeded with other seeds is seeded again, adding only what is missing', async () => {
    const counts = async () => ({
      plans: (await second.db.select().from(ratePlans)).length,
      bundles: (await second.db.select().from(creditBundles)).length,
      roles: (await second.db.select().from(roles)).length,
      updates: (await second.db.select().from(contentUpdates)).length,
    });
    await second.db.delete(contentUpdates);
    await second.db.delete(roles).where(eq(roles.name, 'SME'));
    await second.db
      .update(appSettings)
      .set({ value: 'an older seed' })
      .where(eq(appSettings.key, 'reference-data-seeded'));
    const before = await counts();
    await seedReferenceData(second.db);
    expect(await counts()).toEqual({ ...before, roles: before.roles + 1, updates: 4 });
    const [mark] = await second.db.select().from(appSettings).where(eq(appSettings.key, 'reference-data-seeded'));
    expect(mark?.value).toMatch(/^[0-9a-f]{64}$/);
  });
});
