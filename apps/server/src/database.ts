import { existsSync } from 'node:fs';
import { openDatabase, seedReferenceData, type DbHandle } from '@connect/db';
import type { PGliteThread } from '@connect/db/thread';
import { loadConfig, type Config } from './config.ts';
import { embeddedDir, type DatabaseSettings } from './embedded-database.ts';

/**
 * The configured database: DATABASE_URL's PostgreSQL, else the embedded PGlite in DATA_DIR/pglite
 * (on `thread` when entry.ts started it already).
 */
export function openConfiguredDatabase(config: DatabaseSettings, thread?: Promise<PGliteThread>): Promise<DbHandle> {
  return openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { dataDir: embeddedDir(config), ...(thread ? { thread } : {}) },
  );
}

/**
 * A first start's new embedded database, created and migrated ahead of the server: `npm start`
 * runs this beside the web app's build, so PGlite's initdb and the migrations (~4.4 s, on the
 * database's thread) overlap it instead of following it (issue 30). Does nothing when the
 * database exists, is PostgreSQL, or the configuration is refused (the server then says why).
 */
export async function prepareNewEmbeddedDatabase(): Promise<'created' | 'skipped'> {
  let config: Config;
  try {
    config = loadConfig();
  } catch {
    return 'skipped';
  }
  if (config.databaseUrl || existsSync(embeddedDir(config))) return 'skipped';
  const dbh = await openConfiguredDatabase(config);
  try {
    await dbh.migrate();
    await seedReferenceData(dbh.db);
  } finally {
    await dbh.close();
  }
  return 'created';
}
