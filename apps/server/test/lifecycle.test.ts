import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from './helpers.ts';

describe('server lifecycle on the embedded database', () => {
  it('finishes in-flight requests on close, then closes the database; data survives a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-lifecycle-'));
    // No IDP_POOL_ID: the pool id is generated on first start and must be the same after a restart.
    const config = testConfig({ DATA_DIR: dataDir, IDP_POOL_ID: '', IDP_CLIENT_ID: '' });
    const first = await buildApp({ config, logger: false });
    first.get('/api/test/slow', { config: { access: 'public' } }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { finished: true };
    });
    await first.listen({ port: 0, host: '127.0.0.1' });
    const { port } = first.server.address() as { port: number };
    const poolId = first.deps.pool.poolId;
    expect(poolId).toMatch(/^us-east-1_[0-9A-Za-z]{9}$/);

    const inFlight = fetch(`http://127.0.0.1:${port}/api/test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = first.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    await closing;
    expect(first.deps.dbh.isClosed).toBe(true);

    const second = await buildApp({ config, logger: false });
    await second.ready();
    expect(second.deps.pool.poolId).toBe(poolId);
    expect(second.deps.keys!.jwks()).toEqual(first.deps.keys!.jwks());
    await second.close();
  });
});
