import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIGRATIONS_DIR, type DbHandle } from './client.ts';
import { migrateWhenBehind } from './migrate.ts';
import { createTestDatabase } from './testing.ts';

/** The migrations folder with one more migration (creating `table`) after the last. */
function folderWithOneMore(table: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'connect-migrations-'));
  cpSync(MIGRATIONS_DIR, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: '9999_added' });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(path.join(folder, '9999_added.sql'), `create table "${table}" (id int);`);
  return folder;
}

describe('migrations at start-up (issue 30)', () => {
  let dbh: DbHandle;
  let folder: string;
  beforeAll(async () => {
    dbh = await createTestDatabase(); // migrated
    folder = folderWithOneMore('migration_probe');
  });
  afterAll(async () => {
    await dbh?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('skips the migrator when every migration has run', async () => {
    const runMigrator = vi.fn(async () => undefined);
    expect(await migrateWhenBehind(dbh.query, MIGRATIONS_DIR, runMigrator)).toBe('current');
    expect(runMigrator).not.toHaveBeenCalled();
    expect(await dbh.migrate()).toBe('current');
  });

  it('runs the migrator when a migration was added, and only that once', async () => {
    const runMigrator = () =>
      dbh.kind === 'pglite'
        ? migratePglite(dbh.db as unknown as PgliteDatabase, { migrationsFolder: folder })
        : migratePg(dbh.db as unknown as NodePgDatabase, { migrationsFolder: folder });
    expect(await migrateWhenBehind(dbh.query, folder, runMigrator)).toBe('migrated');
    const { rows } = await dbh.query(`select to_regclass('migration_probe') is not null as "exists"`);
    expect(rows[0]?.exists).toBe(true);
    expect(await migrateWhenBehind(dbh.query, folder, runMigrator)).toBe('current');
  });

  it('runs the migrator on a database that never ran one', async () => {
    const runMigrator = vi.fn(async () => undefined);
    const empty = async (text: string) =>
      text.includes('to_regclass') ? { rows: [{ exists: false }] } : { rows: [] as Record<string, unknown>[] };
    expect(await migrateWhenBehind(empty, MIGRATIONS_DIR, runMigrator)).toBe('migrated');
    expect(runMigrator).toHaveBeenCalledOnce();
  });
});
