import { buildApp } from './app.ts';
import { ensureAdministrator } from './bootstrap.ts';
import { loadConfig } from './config.ts';

const config = loadConfig();
const app = await buildApp({ config });
await ensureAdministrator(app.deps, (line) => process.stdout.write(`${line}\n`));

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // A request that never ends must not keep the process alive forever.
  const timer = setTimeout(() => {
    app.log.error('graceful shutdown timed out; exiting');
    process.exit(1);
  }, 25_000);
  timer.unref();
  try {
    await app.close(); // stops accepting, waits for in-flight requests, then onClose closes the database
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
