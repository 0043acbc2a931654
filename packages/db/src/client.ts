import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PGliteThread } from './pglite-thread.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** One type for both drivers, so repositories never know which database they run on. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

export type DbHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL with parameters; used by health checks and the job queue adapter. */
  /** `name` makes it a prepared statement on PostgreSQL (parsed once per connection). */
  query: (
    text: string,
    params?: unknown[],
    options?: { name?: string },
  ) => Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * Runs SQL that may hold several statements when there are no parameters (the job queue
   * installs its schema this way); answers the rows of the last statement.
   */
  execute: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;
  migrate: () => Promise<void>;
  close: () => Promise<void>;
  /** True once close() has finished. */
  readonly isClosed: boolean;
  /** PGlite only: a tarball of the data dir, used to build test templates. */
  dumpDataDir?: () => Promise<Blob>;
};

export type DbOptions = {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` with no databaseUrl means in-memory. */
  dataDir?: string;
  /** A PGlite data-dir dump to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob;
  poolSize?: number;
};

export async function openDatabase(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    });
    // An idle client that loses its connection emits 'error'; without a listener Node would crash.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      query: async (text, params, options) => {
        const result = await pool.query({
          text,
          values: params as unknown[],
          ...(options?.name ? { name: options.name } : {}),
        });
        return { rows: result.rows as Record<string, unknown>[] };
      },
      execute: async (text, params) => {
        // Without values pg uses the simple protocol, which accepts several statements.
        const result = await pool.query(text, params?.length ? (params as unknown[]) : undefined);
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
      },
      migrate: () =>
        migratePg(drizzlePg(pool, { schema }), {
          migrationsFolder: MIGRATIONS_DIR,
        }),
      close: () => pool.end(),
      get isClosed() {
        return pool.ended;
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // On a thread of its own, so statements never hold the server's event loop (pglite-thread.ts).
  const client = await PGliteThread.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const pgliteDb = drizzlePglite({ client: client.asPGlite(), schema });
  return {
    db: pgliteDb as unknown as Database,
    kind: 'pglite',
    query: async (text, params) => {
      const result = await client.query<Record<string, unknown>>(text, params as unknown[]);
      return { rows: result.rows };
    },
    execute: async (text, params) => {
      if (params?.length) {
        const result = await client.query<Record<string, unknown>>(text, params as unknown[]);
        return { rows: result.rows };
      }
      const results = await client.exec(text);
      return { rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[] };
    },
    migrate: () => migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
    get isClosed() {
      return client.closed;
    },
    dumpDataDir: () => client.dumpDataDir('gzip'),
  };
}
