// The server under test for `npm run bench:api`: the whole app on a fresh embedded database (or
// DATABASE_URL), plus one bare JSON route that goes through the same hooks (request id, helmet,
// rate limit, access check) as every other route, as the baseline.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-bench-'));
const config = loadConfig({
  ...process.env,
  // Not 'production': the benchmark reads the sign-up code from the dev mailbox.
  NODE_ENV: 'benchmark',
  // The benchmark signs its user up over the wire protocol; it measures sign-ins, not captchas.
  SIGNUP_CAPTCHA: 'off',
  SECRET_KEY: 'bench-secret-key',
  DATA_DIR: dataDir,
  PUBLIC_URL: 'http://127.0.0.1',
  LOG_LEVEL: 'silent',
  // The benchmark measures throughput, not the limiter's refusals.
  RATE_LIMIT_MAX: '100000000',
  IDP_RATE_LIMIT_MAX: '100000000',
});
const app = await buildApp({ config, logger: false });
app.get('/api/bench/bare', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
// The data directory (PGlite's files, ~40 MB) goes with the server.
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .finally(() => rmSync(dataDir, { recursive: true, force: true }))
      .then(() => process.exit(0)),
);
