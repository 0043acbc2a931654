import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// A random port (kept in the environment so Playwright's workers agree) lets several runs share a
// machine; E2E_PORT pins it. The server's local chains get random ports the same way.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
process.env.E2E_DEVCHAIN_PORTS ??= [1, 2].map(() => 40_000 + Math.floor(Math.random() * 20_000)).join(',');
const port = Number(process.env.E2E_PORT);
// Every run starts from an empty embedded database, so journeys never depend on leftovers.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'connect-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    // As a reader who asks for less motion: nothing to wait for, and less for the browser to draw
    // (apps/web/src/styles/plain.css).
    reducedMotion: 'reduce',
    // A failed journey keeps its trace (each step's DOM, network and console) but not the trace's
    // screencast: recording its frames took 45 % of the journeys' CPU (20 journeys: 459 CPU-s with
    // it, 273 without, 254 with no trace at all), and the failure's own screenshot stays.
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      // Debian's headless shell: scripts/ensure-chromium.mjs installs it and says why.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1366, height: 900 } } }],
  webServer: {
    // The compiled server, as `npm start` runs it (built by `npm run e2e:prepare`; here too unless current).
    command: `node scripts/start.mjs --server-only`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      // No PUBLIC_URL: the server names itself http://localhost:<port> while the pages are opened at
      // 127.0.0.1, as a LAN user or a proxy without PUBLIC_URL would (portal-host.spec.ts).
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // No ADMIN_PASSWORD: the administrator is invited with a temporary password (recovery.spec.ts).
      ADMIN_EMAIL: 'admin@e2e.test',
      // The server tests run against PostgreSQL in CI's second pass; the journeys use the embedded default.
      DATABASE_URL: '',
      DEVCHAIN_PORTS: process.env.E2E_DEVCHAIN_PORTS,
    },
  },
});
