import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS_DIR, openDatabase, type DbHandle } from './client.ts';
import { SEEDS_FINGERPRINT, seedReferenceData } from './seed.ts';

/** Changes whenever a migration or a seed changes, so a stale template is never reused. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) {
    if (file.endsWith('.sql')) hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  hash.update(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json')));
  hash.update(SEEDS_FINGERPRINT);
  return hash.digest('hex').slice(0, 16);
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A migrated and seeded PGlite data dir, built once per machine per migration set and cached
 * in the OS temp dir; each test then starts a fresh in-memory database from it (~2 s instead of
 * migrating from scratch).
 */
function loadPgliteTemplate(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = path.join(os.tmpdir(), `connect-pglite-template-${migrationsHash()}.tgz`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const handle = await openDatabase({});
    await handle.migrate();
    await seedReferenceData(handle.db);
    if (!handle.dumpDataDir) throw new Error('PGlite handle cannot dump its data dir');
    const dump = await handle.dumpDataDir();
    await handle.close();
    // Write then rename, so a parallel worker never reads a half-written template.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    renameSync(tmp, file);
    return dump;
  })();
  return pgliteTemplate;
}

/** Admin connection to the server named by DATABASE_URL, for creating per-test databases. */
async function withAdmin<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function databaseUrlFor(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh, migrated and seeded database for one test file. With DATABASE_URL it is a new
 * PostgreSQL database cloned from a migrated template (dropped on close); otherwise a new
 * in-memory PGlite loaded from the cached template.
 */
export async function createTestDatabase(): Promise<DbHandle> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    return openDatabase({ loadDataDir: await loadPgliteTemplate() });
  }
  const template = `connect_tpl_${migrationsHash()}`;
  await withAdmin(databaseUrl, async (admin) => {
    // Two workers may race to build the template: the advisory lock lets one build it.
    await admin.query('select pg_advisory_lock(4242)');
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (exists.rowCount === 0) {
        await admin.query(`create database "${template}"`);
        const handle = await openDatabase({ databaseUrl: databaseUrlFor(databaseUrl, template), poolSize: 1 });
        try {
          await handle.migrate();
          await seedReferenceData(handle.db);
        } finally {
          await handle.close();
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock(4242)');
    }
  });
  const name = `connect_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await withAdmin(databaseUrl, (admin) => admin.query(`create database "${name}" template "${template}"`));
  const handle = await openDatabase({ databaseUrl: databaseUrlFor(databaseUrl, name), poolSize: 4 });
  // A wrapper rather than a spread: spreading would freeze the isClosed getter's value.
  return Object.assign(Object.create(handle) as DbHandle, {
    close: async () => {
      await handle.close();
      await withAdmin(databaseUrl, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  });
}
