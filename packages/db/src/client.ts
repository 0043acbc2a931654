import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrateWhenBehind } from './migrate.ts';
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
  /** Runs the migrations the database has not run yet ('current': there were none, nothing ran). */
  migrate: () => Promise<'migrated' | 'current'>;
  /**
   * Takes the session-level advisory lock named `key` if nobody holds it (never waits), and holds
   * it until `release()`. One node per chain follows it this way (adapters/chains/follower).
   * PostgreSQL: a connection of its own (not the pool's: a lock held for minutes would take a
   * pooled connection away from every query) running `pg_try_advisory_lock`; when the node dies
   * its connection closes and the server releases the lock, so another node takes over. Needs a
   * direct connection (a transaction-mode pooler would move the session under the lock).
   * PGlite: one process owns the database, so an in-process guard is the whole answer.
   */
  tryLock: (key: string) => Promise<AdvisoryLock | null>;
  /**
   * Calls `onNotify` whenever a session runs `pg_notify(channel, …)` and commits (PostgreSQL
   * delivers notifications at commit, to every listening session, one per channel and
   * transaction). The event bus wakes every node this way when an event commits.
   * PostgreSQL: `LISTEN` on a connection of its own (a pooled one would be handed to other
   * queries); when it fails the error goes to `onError` and it reconnects (1 s, doubling to 30 s),
   * calling `onNotify` once connected again, since notifications sent meanwhile are lost. Answers
   * once the first attempt to listen ended (it never rejects). Closed by `close()` and by
   * DbHandle.close(). Needs a direct connection, like tryLock.
   * PGlite: a listener that never calls (one connection: whoever commits is in this process).
   * `onNotify` gets the notification's payload; none after a reconnection (what was missed is unknown).
   */
  listen: (
    channel: string,
    onNotify: (payload?: string) => void,
    onError?: (err: unknown) => void,
  ) => Promise<Listener>;
  close: () => Promise<void>;
  /** True once close() has finished. */
  readonly isClosed: boolean;
  /** PGlite only: a tarball of the data dir, used to build test templates. */
  dumpDataDir?: () => Promise<Blob>;
};

/** A held advisory lock (DbHandle.tryLock). */
export type AdvisoryLock = {
  /**
   * Aborted when the lock went without `release()`: its connection was lost (the server then
   * released it, and another node may hold it now) or the database was closed.
   */
  readonly lost: AbortSignal;
  /** Gives the lock up; idempotent. */
  release: () => Promise<void>;
};

/** A LISTEN (DbHandle.listen). */
export type Listener = {
  /** Stops listening and closes its connection; idempotent. */
  close: () => Promise<void>;
};

/**
 * Advisory locks live in the two-int4 key space under this class id ('conn'), so the keys of
 * tryLock never meet a single-bigint lock taken elsewhere (the test template's, pg-boss's).
 */
const LOCK_CLASS = 0x636f6e6e;

/** A PostgreSQL session lock on a connection of its own; null when another session holds it. */
async function tryPgLock(connectionString: string, key: string, held: Set<pg.Client>): Promise<AdvisoryLock | null> {
  // Keep-alive: a connection whose peer vanished is noticed (and the lock reported lost).
  const client = new pg.Client({ connectionString, keepAlive: true });
  const lost = new AbortController();
  let isReleased = false;
  client.on('error', () => lost.abort(new Error(`lock ${key}: its connection failed`)));
  client.on('end', () => {
    held.delete(client);
    if (!isReleased) lost.abort(new Error(`lock ${key}: its connection closed`));
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'select pg_try_advisory_lock($1::int4, hashtext($2)) as locked',
      [LOCK_CLASS, key],
    );
    if (!rows[0]?.locked) {
      isReleased = true;
      await client.end();
      return null;
    }
  } catch (err) {
    isReleased = true;
    await client.end().catch(() => undefined);
    throw err;
  }
  held.add(client);
  return {
    lost: lost.signal,
    release: async () => {
      if (isReleased) return;
      isReleased = true;
      // Closing the session releases its locks; unlocking first tells the server at once even if
      // the goodbye is slow.
      await client.query('select pg_advisory_unlock($1::int4, hashtext($2))', [LOCK_CLASS, key]).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

const LISTEN_RETRY_MS = 1_000;
const LISTEN_RETRY_MAX_MS = 30_000;

/** `LISTEN channel` on a connection of its own, reconnecting until closed (DbHandle.listen). */
async function pgListen(
  connectionString: string,
  channel: string,
  onNotify: (payload?: string) => void,
  onError: (err: unknown) => void,
  open: Set<Listener>,
): Promise<Listener> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_MS;
  let isClosed = false;

  const reconnectLater = (err: unknown) => {
    if (isClosed || retry) return;
    onError(err);
    retry = setTimeout(() => {
      retry = undefined;
      void connect(true);
    }, retryMs);
    retry.unref?.();
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MAX_MS);
  };

  const connect = async (isReconnect: boolean) => {
    // Keep-alive: a connection whose peer vanished is noticed, and replaced.
    const current = new pg.Client({ connectionString, keepAlive: true });
    client = current;
    current.on('notification', (message) => {
      if (message.channel === channel && client === current) onNotify(message.payload);
    });
    current.on('error', (err) => {
      if (client !== current) return;
      void current.end().catch(() => undefined);
      reconnectLater(err);
    });
    current.on('end', () => {
      if (client === current) reconnectLater(new Error(`listen ${channel}: its connection closed`));
    });
    try {
      await current.connect();
      await current.query(`listen ${current.escapeIdentifier(channel)}`);
    } catch (err) {
      if (client === current) client = undefined;
      await current.end().catch(() => undefined);
      reconnectLater(err);
      return;
    }
    if (isClosed) {
      await current.end().catch(() => undefined);
      return;
    }
    retryMs = LISTEN_RETRY_MS;
    // Whatever committed while no connection listened was not heard.
    if (isReconnect) onNotify();
  };

  const listener: Listener = {
    close: async () => {
      if (isClosed) return;
      isClosed = true;
      open.delete(listener);
      clearTimeout(retry);
      retry = undefined;
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
  open.add(listener);
  await connect(false);
  return listener;
}

/** PGlite's locks: keys held in this process (one process owns a PGlite database). */
function tryLocalLock(key: string, held: Map<string, AbortController>): AdvisoryLock | null {
  if (held.has(key)) return null;
  const lost = new AbortController();
  held.set(key, lost);
  return {
    lost: lost.signal,
    release: async () => {
      if (held.get(key) === lost) held.delete(key);
    },
  };
}

export type DbOptions = {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` with no databaseUrl means in-memory. */
  dataDir?: string;
  /** A PGlite data-dir dump to start from (tests clone a migrated template this way). */
  loadDataDir?: Blob;
  /**
   * The embedded database's thread, already started on `dataDir` (`@connect/db/thread`): the server
   * starts it before this package loads, so that PGlite opens meanwhile (issue 30).
   */
  thread?: Promise<PGliteThread>;
  poolSize?: number;
  /** The migrations to run (tests add one); MIGRATIONS_DIR. */
  migrationsFolder?: string;
};

export async function openDatabase(options: DbOptions): Promise<DbHandle> {
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_DIR;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    });
    // An idle client that loses its connection emits 'error'; without a listener Node would crash.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const databaseUrl = options.databaseUrl;
    const lockClients = new Set<pg.Client>();
    const listeners = new Set<Listener>();
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
        migrateWhenBehind(
          (text) => pool.query(text),
          migrationsFolder,
          () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder }),
        ),
      tryLock: (key) => tryPgLock(databaseUrl, key, lockClients),
      listen: (channel, onNotify, onError = () => undefined) =>
        pgListen(databaseUrl, channel, onNotify, onError, listeners),
      close: async () => {
        // Locks still held end with their connections (their holders see `lost`).
        await Promise.all([...lockClients].map((client) => client.end().catch(() => undefined)));
        await Promise.all([...listeners].map((listener) => listener.close()));
        await pool.end();
      },
      get isClosed() {
        return pool.ended;
      },
    };
  }
  // On a thread of its own, so statements never hold the server's event loop (pglite-thread.ts).
  const client = await (options.thread ??
    PGliteThread.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    }));
  const pgliteDb = drizzlePglite({ client: client.asPGlite(), schema });
  const localLocks = new Map<string, AbortController>();
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
    migrate: () =>
      migrateWhenBehind(
        (text) => client.query<Record<string, unknown>>(text),
        migrationsFolder,
        () => migratePglite(pgliteDb, { migrationsFolder }),
      ),
    tryLock: async (key) => tryLocalLock(key, localLocks),
    // One connection: every commit happens in this process, whose bus nudges itself.
    listen: async () => ({ close: async () => undefined }),
    close: async () => {
      for (const lost of localLocks.values()) lost.abort(new Error('the database was closed'));
      localLocks.clear();
      await client.close();
    },
    get isClosed() {
      return client.closed;
    },
    dumpDataDir: () => client.dumpDataDir('gzip'),
  };
}
