import { eq } from 'drizzle-orm';
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

  it('a start with a token records it, saying which one it replaced; a start without one leaves the recorded token', async () => {
    const configured = t.app.deps.config.chains.networks;
    const warnings: string[] = [];
    const log = { warn: (_facts: object, message: string) => warnings.push(message) };
    const recorded = await syncNetworkCatalogue(
      t.db.db,
      configured,
      { network: 'polygon-testnet', tokenAddress: TOKEN },
      log,
    );
    const byCode = await tokens();
    expect(byCode['polygon-testnet']!.token).toBe(TOKEN.toLowerCase());
    expect(byCode['ethereum-testnet']!.token).toBeNull();
    expect(recorded).toMatchObject({ network: 'polygon-testnet', tokenAddress: TOKEN.toLowerCase() });
    expect(warnings).toEqual([
      `QNT_TOKEN_ADDRESS: this node's QNT token ${TOKEN.toLowerCase()} on polygon-testnet replaces the recorded ${TOKEN.toLowerCase()} on ethereum-testnet`,
    ]);

    // Another node, or this one started again, without QNT_TOKEN_ADDRESS (issue 31): nothing changes.
    warnings.length = 0;
    const tokenByCode = async () =>
      Object.fromEntries(Object.values(await tokens()).map((row) => [row.code, row.token]));
    const before = await tokenByCode();
    for (const qnt of [
      { network: 'polygon-testnet', tokenAddress: null },
      { network: '', tokenAddress: null },
      undefined,
    ])
      expect(await syncNetworkCatalogue(t.db.db, configured, qnt, log)).toEqual(recorded);
    expect(await tokenByCode()).toEqual(before);
    expect(warnings).toEqual([]);
  });

  it('a start with an RPC URL says which recorded one it replaced, showing no path (an API key may be in it)', async () => {
    const warnings: { facts: object; message: string }[] = [];
    const log = { warn: (facts: object, message: string) => warnings.push({ facts, message }) };
    const configure = (url: string) =>
      t.app.deps.config.chains.networks.map((n) => (n.code === 'polygon-mainnet' ? { ...n, rpcUrl: url } : n));
    await syncNetworkCatalogue(t.db.db, configure('https://polygon.example.com/v3/first-key'), undefined, log);
    expect(warnings).toEqual([]);
    await syncNetworkCatalogue(t.db.db, configure('https://polygon.example.org/v3/second-key'), undefined, log);
    expect(warnings.map((w) => w.message)).toEqual([
      "NETWORK_RPC_POLYGON_MAINNET: this node's RPC URL for polygon-mainnet (https://polygon.example.org/…) replaces the recorded one (https://polygon.example.com/…)",
    ]);
    expect(JSON.stringify(warnings)).not.toMatch(/first-key|second-key/);
    // A node without a URL for it leaves the recorded one.
    await syncNetworkCatalogue(t.db.db, t.app.deps.config.chains.networks, undefined, log);
    const [row] = await t.db.db
      .select({ rpcUrl: networks.rpcUrl, health: networks.health })
      .from(networks)
      .where(eq(networks.code, 'polygon-mainnet'));
    expect(row).toEqual({ rpcUrl: 'https://polygon.example.org/v3/second-key', health: 'OFFLINE' });
    expect(warnings).toHaveLength(1);
  });

  it('writes only the rows whose token changes', async () => {
    const repository = new NetworkCatalogueRepository(t.db.db);
    await repository.recordQntToken('ethereum-testnet', TOKEN.toLowerCase());
    const before = await tokens();
    await repository.recordQntToken('ethereum-testnet', TOKEN.toLowerCase());
    expect(await tokens()).toEqual(before);
  });
});
