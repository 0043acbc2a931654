import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from './helpers.ts';

describe('server lifecycle on the embedded database', () => {
  // Generous: under heavy machine load, building the app twice on PGlite takes a while.
  it(
    'finishes in-flight requests on close, then closes the database; data survives a restart',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-lifecycle-'));
      // No IDP_POOL_ID: the pool id is generated on first start and must be the same after a restart.
      const config = testConfig({ DATA_DIR: dataDir, IDP_POOL_ID: '', IDP_CLIENT_ID: '' });
      const first = await buildApp({ config, logger: false });

      // The handler says when it has started and waits until close() has begun, so the request is
      // certainly in flight when the server starts closing (no sleeps racing the machine's load).
      const entered = deferred();
      const closeStarted = deferred();
      let databaseOpenInHandler: boolean | undefined;
      first.get('/api/test/slow', { config: { access: 'public' } }, async () => {
        entered.resolve();
        await closeStarted.promise;
        // Give close() time to run its hooks: it must still wait for this request (a real wait:
        // nothing marks 'close() would have closed the database by now').
        await new Promise((resolve) => setTimeout(resolve, 200));
        databaseOpenInHandler = !first.deps.dbh.isClosed;
        return { finished: true };
      });
      await first.listen({ port: 0, host: '127.0.0.1' });
      const { port } = first.server.address() as { port: number };
      const poolId = first.deps.pool.poolId;
      expect(poolId).toMatch(/^us-east-1_[0-9A-Za-z]{9}$/);

      const inFlight = fetch(`http://127.0.0.1:${port}/api/test/slow`);
      await entered.promise;
      let isClosed = false;
      const closing = first.close().then(() => {
        isClosed = true;
      });
      closeStarted.resolve();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ finished: true });
      expect(databaseOpenInHandler).toBe(true);
      await closing;
      expect(isClosed).toBe(true);
      expect(first.deps.dbh.isClosed).toBe(true);

      const second = await buildApp({ config, logger: false });
      await second.ready();
      expect(second.deps.pool.poolId).toBe(poolId);
      expect(second.deps.keys!.jwks()).toEqual(first.deps.keys!.jwks());
      await second.close();
    },
  );
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
