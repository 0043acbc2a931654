import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Runs Drizzle's migrator only when the database is behind the migrations folder. On a restart
 * everything has run already, yet the migrator still read and hashed every migration file and ran
 * its schema set-up in a transaction: 0.3–0.6 s of a restart (issue 30); this check is one query.
 *
 * It asks what the migrator would: Drizzle records each migration it ran with the journal's `when`
 * as `created_at`, and runs the journal's entries newer than the newest recorded one. So when the
 * newest recorded `created_at` is at least the journal's newest `when`, there is nothing to run.
 */
export async function migrateWhenBehind(
  query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>,
  migrationsFolder: string,
  runMigrator: () => Promise<void>,
): Promise<'migrated' | 'current'> {
  if ((await newestApplied(query)) >= newestInJournal(migrationsFolder)) return 'current';
  await runMigrator();
  return 'migrated';
}

/** The newest `when` of the folder's journal (drizzle-kit writes meta/_journal.json). */
function newestInJournal(migrationsFolder: string): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** The newest migration the database recorded; -1 before the first (no migrations table yet). */
async function newestApplied(query: (text: string) => Promise<{ rows: Record<string, unknown>[] }>): Promise<number> {
  const { rows } = await query(`select to_regclass('drizzle.__drizzle_migrations') is not null as "exists"`);
  if (!rows[0]?.exists) return -1;
  const newest = await query('select max(created_at) as "newest" from drizzle.__drizzle_migrations');
  return newest.rows[0]?.newest === null || newest.rows[0]?.newest === undefined ? -1 : Number(newest.rows[0].newest);
}
