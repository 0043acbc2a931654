// The server's start, as `npm start` runs its build (scripts/start.mjs) and `server.ts` runs it
// from source. It loads little before the slow parts begin: the configuration, checked first,
// then the database, which opens on its own thread, and the local chains, which boot in their own
// processes, while the rest of the server (main.ts, loaded on first use) loads (issue 30).
import type { Config } from './config.ts';

/** Starts the server and resolves once it listens; a refused configuration ends the process with its reasons. */
export async function startServer(): Promise<void> {
  const { loadConfig } = await import('./config.ts');
  // A production configuration that fails its checked list (production-checks.ts) stops here with
  // every refused setting named.
  let loaded: Config;
  try {
    loaded = loadConfig();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  // The embedded database's thread first: PGlite opens while the database layer and the rest load.
  const { startEmbeddedDatabase } = await import('./embedded-database.ts');
  const thread = startEmbeddedDatabase(loaded);
  thread?.catch(() => undefined); // reported through openingDb below
  const { openConfiguredDatabase } = await import('./database.ts');
  const openingDb = openConfiguredDatabase(loaded, thread);
  // Its failure is the app's to report (buildApp awaits it); not an unhandled rejection meanwhile.
  openingDb.catch(() => undefined);
  const { startLocalChains } = await import('./local-chains.ts');
  const startingChains = startLocalChains(loaded);
  const { runServer } = await import('./main.ts');
  await runServer(openingDb, startingChains);
}

/** A first start's new embedded database, created beside the builds (database.ts). */
export async function prepareNewEmbeddedDatabase(): Promise<'created' | 'skipped'> {
  return (await import('./database.ts')).prepareNewEmbeddedDatabase();
}
