import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from '../../../test/production-env.ts';
import { loadConfig } from '../../config.ts';
import { startConfiguredDevChains } from './devchains.ts';

describe('local chains', () => {
  it('never start in production, even from a configuration that says they should', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-devchains-'));
    const production = loadConfig({ ...PRODUCTION_ENV, DATA_DIR: dataDir, DEVCHAIN_PORTS: '0,0' });
    // A configuration built by hand, past loadConfig's check (which refuses DEVCHAINS=on in production).
    const config = {
      ...production,
      chains: { ...production.chains, devchains: { ...production.chains.devchains, enabled: true } },
    };
    const running = await startConfiguredDevChains(config);
    try {
      expect(running.chains).toEqual([]);
      expect(running.config.chains.networks.find((n) => n.code === 'ethereum-testnet')?.rpcUrl).toBeUndefined();
    } finally {
      await running.stop();
    }
  });
});
