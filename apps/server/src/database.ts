import { existsSync } from 'node:fs';
import { openDatabase, seedReferenceData, type DbHandle } from '@connect/db';
import type { PGliteThread } from '@connect/db/thread';
import { loadConfig, type Config } from './config.ts';
import { embeddedDir, startEmbeddedDatabase } from './embedded-database.ts';

type DatabaseSettings = Pick<Config, 'databaseUrl' | 'dataDir'>;

/**
 * The configured database: DATABASE_URL's PostgreSQL, else the embedded PGlite in DATA_DIR/pglite
 * (on `thread` when entry.ts started it already).
 */
export function openConfiguredDatabase(
  config: DatabaseSettings,
  thread: Promise<PGliteThread> | undefined = startEmbeddedDatabase(config),
): Promise<DbHandle> {
  return openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { dataDir: embeddedDir(config), ...(thread ? { thread } : {}) },
  );
}

/**
 * A first start's new embedded database, created and migrated ahead of the server: `npm start`
 * runs this beside the web app's build and the contracts' compile, so PGlite's initdb (~9 s, on
 * its own thread) overlaps them instead of following them (issue 30). Does nothing when the
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
