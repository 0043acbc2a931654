// The server's entry (`npm start` runs its build: scripts/start.mjs). It loads little: the
// configuration, checked first, and the database package, so that the database starts opening
// before anything else — on its own thread, in parallel with loading the rest of the server
// (main.ts, a separate part of the build), starting the local chains and building the app. On a
// restart the embedded database's open (~1 s) and loading the server (~1 s) overlap (issue 30).
import { openConfiguredDatabase } from './database.ts';
import { loadConfig } from './config.ts';

// A production configuration that fails its checked list (production-checks.ts) stops here with
// every refused setting named.
let loaded: ReturnType<typeof loadConfig>;
try {
  loaded = loadConfig();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const openingDb = openConfiguredDatabase(loaded);
// Its failure is the app's to report (buildApp awaits it); not an unhandled rejection meanwhile.
openingDb.catch(() => undefined);
const { runServer } = await import('./main.ts');
await runServer(loaded, openingDb);
