// The server under test for `npm run bench:web`: the whole app, serving the production build of
// apps/web/dist, on a fresh embedded database in DATA_DIR, on the port the benchmark picked.
// Sign-up keeps its captcha: the benchmark solves it.
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

const port = Number(process.env.PORT);
if (!port || !process.env.DATA_DIR) throw new Error('bench/web-server.ts needs PORT and DATA_DIR');

const config = loadConfig({
  ...process.env,
  // Not 'production': the benchmark reads the sign-up code from the dev mailbox.
  NODE_ENV: 'benchmark',
  SECRET_KEY: 'bench-secret-key',
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: 'silent',
  // The global limiter counts every static file too (one page load is ~40 requests), so a few
  // Lighthouse runs in a minute would be answered 429: the benchmark measures pages, not the limiter.
  RATE_LIMIT_MAX: '100000000',
  IDP_RATE_LIMIT_MAX: '100000000',
});
const app = await buildApp({ config, logger: false });
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
