import { networks } from '@connect/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { syncNetworkCatalogue } from '../adapters/chains/catalogue-sync.ts';
import { LOCAL_QNT_ADDRESS as TOKEN } from '../adapters/chains/qnt-token.ts';
import { NetworkCatalogueRepository } from './network-catalogue.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ QNT_TOKEN_ADDRESS: TOKEN });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const tokens = async () => {
  const rows = await t.db.db
    .select({ code: networks.code, token: networks.qntTokenAddress, updatedAt: networks.updatedAt })
    .from(networks);
  return Object.fromEntries(rows.map((row) => [row.code, row]));
};

describe('the QNT token in the network catalogue', () => {
  it('a built app records QNT_TOKEN_ADDRESS on the QNT network (lower case), and no token on the others', async () => {
    const byCode = await tokens();
    expect(byCode['ethereum-testnet']!.token).toBe(TOKEN.toLowerCase());
    for (const code of ['polygon-testnet', 'ethereum-mainnet', 'polygon-mainnet'])
      expect(byCode[code]!.token).toBeNull();
  });

  it('follows the configuration on the next start: another QNT network, then no token at all', async () => {
    const configured = t.app.deps.config.chains.networks;
    await syncNetworkCatalogue(t.db.db, configured, { network: 'polygon-testnet', tokenAddress: TOKEN });
    let byCode = await tokens();
    expect(byCode['polygon-testnet']!.token).toBe(TOKEN.toLowerCase());
    expect(byCode['ethereum-testnet']!.token).toBeNull();

    await syncNetworkCatalogue(t.db.db, configured, { network: 'polygon-testnet', tokenAddress: null });
    byCode = await tokens();
    expect(Object.values(byCode).map((row) => row.token)).toEqual(Object.values(byCode).map(() => null));

    // Without the QNT configuration the recorded token is left as it is.
    await new NetworkCatalogueRepository(t.db.db).recordQntToken('ethereum-testnet', TOKEN.toLowerCase());
    await syncNetworkCatalogue(t.db.db, configured);
    expect((await tokens())['ethereum-testnet']!.token).toBe(TOKEN.toLowerCase());
  });

  it('writes only the rows whose token changes', async () => {
    const repository = new NetworkCatalogueRepository(t.db.db);
    await repository.recordQntToken('ethereum-testnet', TOKEN.toLowerCase());
    const before = await tokens();
    await repository.recordQntToken('ethereum-testnet', TOKEN.toLowerCase());
    expect(await tokens()).toEqual(before);
  });
});
