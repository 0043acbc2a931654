// What a benchmark leaves behind, removed when it ends: the data directories of the apps it built,
// the databases it made itself, and the migrated templates the test helpers build when none is
// cached (the PGlite archive in the OS temp dir, the PostgreSQL template database). A template that
// was there before the run is the test suite's cache and stays.
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestContext } from '../apps/server/test/helpers.ts';

const PGLITE_TEMPLATE = /^connect-pglite-template-.*\.tgz$/;

function pgliteTemplates(): Set<string> {
  return new Set(readdirSync(os.tmpdir()).filter((name) => PGLITE_TEMPLATE.test(name)));
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function postgresTemplates(): Promise<Set<string>> {
  const rows = await withAdmin(
    async (admin) =>
      (await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'connect_tpl_%'`))
        .rows,
  );
  return new Set((rows ?? []).map((row) => row.datname));
}

/**
 * Notes the templates that exist now; `tidy()` then removes the templates made since and the
 * directories named to it. Call `tidy` after the apps closed.
 */
export async function leftovers() {
  const pglite = pgliteTemplates();
  const postgres = await postgresTemplates();
  const dirs = new Set<string>();
  const databases = new Set<string>();
  return {
    /** A directory to remove at the end (an app's DATA_DIR). */
    dir(dir: string) {
      dirs.add(dir);
    },
    /** The data directory of a test app (createTestApp makes one per app). */
    app(t: TestContext) {
      dirs.add(t.app.deps.config.dataDir);
    },
    /** A database the benchmark creates (its URL): dropped at the end, its sessions ended. */
    database(url: string) {
      databases.add(url);
    },
    async tidy() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      for (const url of databases) {
        const server = new URL(url);
        const name = decodeURIComponent(server.pathname.slice(1));
        server.pathname = '/postgres';
        const admin = new pg.Client({ connectionString: server.toString() });
        await admin.connect();
        try {
          await admin.query(`drop database if exists "${name}" with (force)`);
        } finally {
          await admin.end();
        }
        databases.delete(url);
      }
      for (const name of pgliteTemplates()) {
        if (!pglite.has(name)) rmSync(path.join(os.tmpdir(), name), { force: true });
      }
      await withAdmin(async (admin) => {
        for (const name of await postgresTemplates()) {
          // Not forced: a test run that clones it meanwhile keeps it.
          if (!postgres.has(name)) await admin.query(`drop database if exists "${name}"`).catch(() => undefined);
        }
      });
    },
  };
}
