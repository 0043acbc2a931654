import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networks } from '@connect/db';
import { DEPLOYER_PRIVATE_KEY } from '@connect/devchain';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { syncNetworkCatalogue } from './catalogue-sync.ts';
import { NETWORK_SEEDS } from './catalogue.ts';
import type { Resolver } from './address-policy.ts';
import { loadChainsConfig } from './chain-config.ts';
import { createNetworkMonitor, assessRpc } from './monitor.ts';
import { probeRpc, rpcCall, RpcError } from './rpc.ts';

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Forwards JSON-RPC to a real chain after a delay, counting requests (to see who probed). */
function delayingProxy(target: string, delayMs: number) {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        void fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        })
          .then(async (r) => {
            res.writeHead(r.status, { 'content-type': 'application/json' });
            res.end(await r.text());
          })
          .catch(() => res.destroy());
      }, delayMs);
    });
  });
  return { server, count: () => requests };
}

let chain: TestChain;
let offline: string;
beforeAll(async () => {
  chain = await startTestChain(31_337);
  offline = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await chain.stop();
});

describe('rpcCall and probeRpc', () => {
  it('calls a method and probes chain id, latest block and base fee', async () => {
    expect(await rpcCall<string>(chain.rpcUrl, 'eth_chainId')).toBe('0x7a69');
    const probe = await probeRpc(chain.rpcUrl);
    expect(probe.chainId).toBe(31_337);
    expect(probe.latestBlock).toBe(0n);
    expect(typeof probe.baseFeePerGas).toBe('bigint'); // anvil's default hardfork has EIP-1559
    expect(probe.latestBlockTimestamp).toBeGreaterThan(1_700_000_000);
  });

  it('reports a JSON-RPC error with its code', async () => {
    const err = await rpcCall(chain.rpcUrl, 'no_suchMethod').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ kind: 'RPC', code: -32601 });
  });

  it('reports an unreachable node', async () => {
    await expect(rpcCall(offline, 'eth_chainId')).rejects.toMatchObject({ kind: 'UNREACHABLE' });
  });

  it('reports a node that does not answer in time', async () => {
    const silent = createTcpServer(() => undefined); // accepts, never answers
    const url = await listen(silent);
    try {
      await expect(rpcCall(url, 'eth_chainId', [], { timeoutMs: 200 })).rejects.toMatchObject({
        kind: 'TIMEOUT',
        message: expect.stringContaining('200 ms'),
      });
    } finally {
      silent.close();
    }
  });

  it('reports an answer that is not JSON-RPC', async () => {
    const html = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>hello</html>');
    });
    const url = await listen(html);
    const failing = createServer((_req, res) => {
      res.writeHead(502);
      res.end('bad gateway');
    });
    const failingUrl = await listen(failing);
    try {
      await expect(rpcCall(url, 'eth_chainId')).rejects.toMatchObject({ kind: 'INVALID_RESPONSE' });
      await expect(rpcCall(failingUrl, 'eth_chainId')).rejects.toMatchObject({ kind: 'HTTP', code: 502 });
    } finally {
      html.close();
      failing.close();
    }
  });
});

describe('rpcCall limits and the address check', () => {
  /** Every name resolves to this machine's loopback address. */
  const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

  it('refuses a loopback URL before connecting when private addresses are refused', async () => {
    let requests = 0;
    const counting = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    const url = await listen(counting);
    const port = new URL(url).port;
    try {
      for (const target of [url, `http://localhost:${port}`, `http://[::1]:${port}`, `http://2130706433:${port}`]) {
        await expect(rpcCall(target, 'eth_chainId', [], { allowPrivateAddresses: false })).rejects.toMatchObject({
          kind: 'BLOCKED',
        });
      }
      await expect(probeRpc(url, { allowPrivateAddresses: false })).rejects.toMatchObject({ kind: 'BLOCKED' });
      expect(requests).toBe(0);
    } finally {
      counting.close();
    }
  });

  it('connects to the address the name was resolved to once', async () => {
    const { port } = new URL(chain.rpcUrl);
    const resolve = toLoopback;
    // node.invalid cannot be resolved by the system: the call can only reach the chain through the checked answer.
    const probe = await probeRpc(`http://node.invalid:${port}`, { allowPrivateAddresses: true, resolve });
    expect(probe.chainId).toBe(31_337);
    await expect(
      rpcCall(`http://node.invalid:${port}`, 'eth_chainId', [], { allowPrivateAddresses: false, resolve }),
    ).rejects.toMatchObject({ kind: 'BLOCKED' });
  });

  it('stops reading an answer longer than the limit, on both paths', async () => {
    const big = 'x'.repeat(300_000);
    const chunked = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","id":1,"result":"');
      for (let i = 0; i < 10; i++) res.write(big);
      res.end('"}');
    });
    const url = await listen(chunked);
    try {
      await expect(rpcCall(url, 'eth_chainId', [], { maxResponseBytes: 1_000_000 })).rejects.toMatchObject({
        kind: 'TOO_LARGE',
      });
      await expect(
        rpcCall(url, 'eth_chainId', [], {
          maxResponseBytes: 1_000_000,
          allowPrivateAddresses: true,
          resolve: toLoopback,
        }),
      ).rejects.toMatchObject({ kind: 'TOO_LARGE' });
      expect(await rpcCall<string>(url, 'eth_chainId', [], { maxResponseBytes: 4_000_000 })).toHaveLength(3_000_000);
    } finally {
      chunked.close();
    }
  });

  it('sends the credentials of a URL as HTTP Basic auth (fetch would refuse the URL)', async () => {
    let authorization: string | undefined;
    const guarded = createServer((req, res) => {
      authorization = req.headers.authorization;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}');
    });
    const url = new URL(await listen(guarded));
    url.username = 'user';
    url.password = 'p@ss';
    try {
      expect(await rpcCall<string>(url.toString(), 'eth_chainId')).toBe('0x7a69');
      expect(authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    } finally {
      guarded.close();
    }
  });

  it('does not follow redirects and keeps the time limit on the checked path', async () => {
    const redirecting = createServer((_req, res) => {
      res.writeHead(307, { location: chain.rpcUrl });
      res.end();
    });
    const url = await listen(redirecting);
    const silent = createTcpServer(() => undefined);
    const silentUrl = await listen(silent);
    const checked = { allowPrivateAddresses: true, resolve: toLoopback };
    try {
      await expect(rpcCall(url, 'eth_chainId', [], checked)).rejects.toMatchObject({ kind: 'HTTP', code: 307 });
      await expect(rpcCall(silentUrl, 'eth_chainId', [], { ...checked, timeoutMs: 200 })).rejects.toMatchObject({
        kind: 'TIMEOUT',
      });
      await expect(rpcCall(offline, 'eth_chainId', [], checked)).rejects.toMatchObject({ kind: 'UNREACHABLE' });
    } finally {
      redirecting.close();
      silent.close();
    }
  });
});

describe('chains configuration', () => {
  it('allows private addresses for private networks except in production, unless set', () => {
    expect(loadChainsConfig({}, '/data').privateNetworkAllowPrivateAddresses).toBe(true);
    expect(loadChainsConfig({ NODE_ENV: 'test' }, '/data').privateNetworkAllowPrivateAddresses).toBe(true);
    expect(loadChainsConfig({ NODE_ENV: 'production' }, '/data').privateNetworkAllowPrivateAddresses).toBe(false);
    expect(
      loadChainsConfig({ NODE_ENV: 'production', PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES: '1' }, '/data')
        .privateNetworkAllowPrivateAddresses,
    ).toBe(true);
    expect(
      loadChainsConfig({ PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES: 'off' }, '/data').privateNetworkAllowPrivateAddresses,
    ).toBe(false);
    expect(() => loadChainsConfig({ PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES: 'maybe' }, '/data')).toThrow(
      'PRIVATE_NETWORK_ALLOW_PRIVATE_ADDRESSES',
    );
  });

  it('defaults: local chains on 8545 and 8546, mainnets without RPC URL, no deployer key without a URL', () => {
    const c = loadChainsConfig({}, '/data');
    expect(c.devchains).toEqual({ enabled: true, ports: [8545, 8546], stateDir: '/data/chains' });
    expect(c.healthIntervalMs).toBe(15_000);
    expect(c.networks.map((n) => [n.code, n.chainId, n.rpcUrl])).toEqual([
      ['ethereum-testnet', 31_337, undefined],
      ['polygon-testnet', 31_338, undefined],
      ['ethereum-mainnet', 1, undefined],
      ['polygon-mainnet', 137, undefined],
    ]);
    expect(c.networks.every((n) => n.deployerPrivateKey === undefined)).toBe(true);
  });

  it('takes RPC URLs, chain ids and deployer keys per network; never a public anvil key', () => {
    const key = `0x${'ab'.repeat(32)}`;
    const c = loadChainsConfig(
      {
        DEVCHAINS: '0',
        DEVCHAIN_PORTS: '9545, 0',
        NETWORK_RPC_ETHEREUM_TESTNET: 'http://127.0.0.1:9545',
        NETWORK_RPC_POLYGON_TESTNET: 'https://rpc-amoy.example.org',
        NETWORK_CHAIN_ID_POLYGON_TESTNET: '80002',
        NETWORK_RPC_ETHEREUM_MAINNET: 'http://127.0.0.1:9999',
        DEPLOYER_PRIVATE_KEY_POLYGON_MAINNET: key,
      },
      '/data',
    );
    expect(c.devchains.enabled).toBe(false);
    expect(c.devchains.ports).toEqual([9545, 0]);
    const byCode = Object.fromEntries(c.networks.map((n) => [n.code, n]));
    // A local testnet's deployer is the installation's own key, added at start-up (platform-deployer.ts).
    expect(byCode['ethereum-testnet']).toMatchObject({ isLocal: true, deployerPrivateKey: undefined });
    expect(c.networks.some((n) => n.deployerPrivateKey === DEPLOYER_PRIVATE_KEY)).toBe(false);
    expect(byCode['polygon-testnet']).toMatchObject({ isLocal: false, chainId: 80_002, deployerPrivateKey: undefined });
    // A mainnet never gets a well-known key, even on loopback.
    expect(byCode['ethereum-mainnet']).toMatchObject({ isLocal: false, deployerPrivateKey: undefined });
    expect(byCode['polygon-mainnet']).toMatchObject({ deployerPrivateKey: key, rpcUrl: undefined });
  });

  it('rejects invalid settings with the variable named', () => {
    expect(() => loadChainsConfig({ NETWORK_RPC_ETHEREUM_MAINNET: 'ftp://x' }, '/d')).toThrow(
      /NETWORK_RPC_ETHEREUM_MAINNET/,
    );
    expect(() => loadChainsConfig({ DEPLOYER_PRIVATE_KEY_ETHEREUM_TESTNET: '0x12' }, '/d')).toThrow(
      /DEPLOYER_PRIVATE_KEY_ETHEREUM_TESTNET/,
    );
    expect(() => loadChainsConfig({ DEVCHAIN_PORTS: '8545,abc' }, '/d')).toThrow(/DEVCHAIN_PORTS/);
    expect(() => loadChainsConfig({ DEVCHAIN_PORTS: '70000' }, '/d')).toThrow(/DEVCHAIN_PORTS/);
    expect(() => loadChainsConfig({ DEVCHAINS: 'maybe' }, '/d')).toThrow(/DEVCHAINS/);
  });
});

describe('network catalogue and health monitor', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      // The same chain answers 31337, not the catalogue's 31338.
      NETWORK_RPC_POLYGON_TESTNET: chain.rpcUrl,
      NETWORK_RPC_ETHEREUM_MAINNET: offline,
      NETWORK_RPC_TIMEOUT_MS: '2000',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const rows = () => t.db.db.select().from(networks).orderBy(networks.sortOrder);

  it('seeds the catalogue with the configured RPC URLs', async () => {
    const all = await rows();
    expect(all.map((n) => n.code)).toEqual(NETWORK_SEEDS.map((s) => s.code));
    const byCode = Object.fromEntries(all.map((n) => [n.code, n]));
    expect(byCode['ethereum-testnet']).toMatchObject({
      name: 'Ethereum Testnet (local)',
      networkType: 'testnet',
      technology: 'Ethereum',
      chainId: 31_337,
      rpcUrl: chain.rpcUrl,
      isLocal: true,
      rateLimit: 25,
    });
    expect(byCode['polygon-mainnet']).toMatchObject({
      name: 'Polygon Mainnet',
      networkType: 'mainnet',
      chainId: 137,
      explorerUrl: 'https://polygonscan.com',
      rpcUrl: null,
      health: 'NOT_CONFIGURED',
      isLocal: false,
    });
    expect(byCode['ethereum-mainnet']).toMatchObject({ explorerUrl: 'https://etherscan.io', rpcUrl: offline });
  });

  it('marks ONLINE, DEGRADED (wrong chain id), OFFLINE (closed port) and NOT_CONFIGURED', async () => {
    const results = await t.app.deps.chains.monitor.checkOnce();
    const byCode = Object.fromEntries(results.map((r) => [r.code, r]));
    expect(byCode['ethereum-testnet']).toMatchObject({ outcome: 'checked', health: 'ONLINE', latestBlock: 0 });
    expect(byCode['polygon-testnet']).toMatchObject({
      outcome: 'checked',
      health: 'DEGRADED',
      reason: 'chain id 31337, expected 31338',
    });
    expect(byCode['ethereum-mainnet']).toMatchObject({ outcome: 'checked', health: 'OFFLINE' });
    expect(byCode['polygon-mainnet']).toMatchObject({ outcome: 'not-configured', health: 'NOT_CONFIGURED' });

    const stored = Object.fromEntries((await rows()).map((n) => [n.code, n]));
    expect(stored['ethereum-testnet']).toMatchObject({ health: 'ONLINE', latestBlock: 0 });
    expect(stored['ethereum-testnet']!.healthCheckedAt).toBeInstanceOf(Date);
    expect(stored['polygon-testnet']!.health).toBe('DEGRADED');
    expect(stored['ethereum-mainnet']).toMatchObject({ health: 'OFFLINE', latestBlock: null });
    expect(stored['polygon-mainnet']).toMatchObject({ health: 'NOT_CONFIGURED', healthCheckedAt: null });
  });

  it('records the latest block as the chain advances', async () => {
    await rpcCall(chain.rpcUrl, 'evm_mine');
    await rpcCall(chain.rpcUrl, 'evm_mine');
    const results = await t.app.deps.chains.monitor.checkOnce();
    expect(results.find((r) => r.code === 'ethereum-testnet')).toMatchObject({ health: 'ONLINE', latestBlock: 2 });
  });

  it('re-seeding is idempotent, keeps tuned rate limits, applies RPC URLs and keeps the ones it is not given', async () => {
    const before = await rows();
    await t.db.db.update(networks).set({ rateLimit: 40 }).where(eq(networks.code, 'ethereum-testnet'));
    const config = loadChainsConfig({ NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl }, '/data');
    await syncNetworkCatalogue(t.db.db, config.networks);
    await syncNetworkCatalogue(t.db.db, config.networks);
    const after = await rows();
    expect(after.map((n) => n.id)).toEqual(before.map((n) => n.id));
    const byCode = Object.fromEntries(after.map((n) => [n.code, n]));
    // Unchanged URL: the last health result stays.
    expect(byCode['ethereum-testnet']).toMatchObject({ rpcUrl: chain.rpcUrl, health: 'ONLINE', rateLimit: 40 });
    // A URL this start is not given is another node's (issue 31): kept, with its chain's name,
    // chain id and last health result.
    expect(byCode['polygon-testnet']).toMatchObject({
      rpcUrl: chain.rpcUrl,
      health: 'DEGRADED',
      chainId: 31_338,
      name: 'Polygon Testnet (local)',
      isLocal: true,
    });
    expect(byCode['polygon-testnet']!.healthCheckedAt).toBeInstanceOf(Date);
    expect(byCode['ethereum-mainnet']).toMatchObject({ rpcUrl: offline, health: 'OFFLINE' });
    // A network nobody configured has none.
    expect(byCode['polygon-mainnet']).toMatchObject({ rpcUrl: null, health: 'NOT_CONFIGURED' });

    // A changed URL is applied, with its chain id; health is unknown (OFFLINE, unchecked) until the next check.
    const changed = `${chain.rpcUrl}/`;
    const again = loadChainsConfig(
      { NETWORK_RPC_POLYGON_TESTNET: changed, NETWORK_CHAIN_ID_POLYGON_TESTNET: '31337' },
      '/d',
    );
    await syncNetworkCatalogue(t.db.db, again.networks);
    const [polygon] = await t.db.db.select().from(networks).where(eq(networks.code, 'polygon-testnet'));
    expect(polygon).toMatchObject({ rpcUrl: changed, chainId: 31_337, health: 'OFFLINE', healthCheckedAt: null });
    const results = await t.app.deps.chains.monitor.checkOnce();
    expect(results.find((r) => r.code === 'polygon-testnet')).toMatchObject({ health: 'ONLINE' });
    expect(results.find((r) => r.code === 'ethereum-testnet')).toMatchObject({ health: 'ONLINE' });
  });

  it('an idle automine chain is ONLINE; a chain whose blocks stop is DEGRADED (stalled)', async () => {
    const other = await startTestChain();
    try {
      const later = Date.now() + 10 * 60_000;
      const opts = { stallAfterMs: 60_000, timeoutMs: 2_000, now: later };
      expect(await assessRpc(other.rpcUrl, other.chainId, opts)).toMatchObject({ health: 'ONLINE' });
      await rpcCall(other.rpcUrl, 'evm_setAutomine', [false]);
      expect(await assessRpc(other.rpcUrl, other.chainId, opts)).toMatchObject({
        health: 'DEGRADED',
        reason: expect.stringMatching(/^stalled: block 0 is \d+ s old$/),
      });
      // Fresh blocks: fine again.
      expect(await assessRpc(other.rpcUrl, other.chainId, { ...opts, now: Date.now() })).toMatchObject({
        health: 'ONLINE',
      });
    } finally {
      await other.stop();
    }
  });

  it('the lock lets only one monitor check a network at a time; another node skips a fresh result', async () => {
    const proxy = delayingProxy(chain.rpcUrl, 400);
    const url = await listen(proxy.server);
    try {
      const config = loadChainsConfig(
        { NETWORK_RPC_ETHEREUM_TESTNET: url, NETWORK_CHAIN_ID_POLYGON_TESTNET: '31337' },
        '/d',
      );
      await syncNetworkCatalogue(t.db.db, config.networks);
      const options = { dbh: t.db, intervalMs: 60_000, stallAfterMs: 60_000, rpcTimeoutMs: 5_000 };
      const a = createNetworkMonitor(options);
      const b = createNetworkMonitor(options);
      const [ra, rb] = await Promise.all([a.checkOnce(), b.checkOnce()]);
      const outcomes = [ra, rb].map((r) => r.find((x) => x.code === 'ethereum-testnet')!.outcome).sort();
      expect(outcomes).toEqual(['checked', 'locked']);
      expect(proxy.count()).toBe(2); // one probe: eth_chainId + eth_getBlockByNumber
      // A node whose periodic run comes just after another's skips the fresh row.
      const fresh = await b.checkOnce({ skipFresh: true });
      expect(fresh.find((x) => x.code === 'ethereum-testnet')).toMatchObject({ outcome: 'fresh', health: 'ONLINE' });
      expect(proxy.count()).toBe(2);
    } finally {
      proxy.server.close();
    }
  });

  it('runs periodically once started and stops cleanly', async () => {
    await t.db.db
      .update(networks)
      .set({ healthCheckedAt: null, health: 'OFFLINE' })
      .where(eq(networks.code, 'ethereum-testnet'));
    await syncNetworkCatalogue(
      t.db.db,
      loadChainsConfig({ NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl }, '/d').networks,
    );
    const monitor = createNetworkMonitor({ dbh: t.db, intervalMs: 100, stallAfterMs: 60_000, rpcTimeoutMs: 2_000 });
    monitor.start();
    expect(monitor.running).toBe(true);
    await expect
      .poll(async () => (await rows()).find((n) => n.code === 'ethereum-testnet')?.health, { timeout: 10_000 })
      .toBe('ONLINE');
    await monitor.stop();
    expect(monitor.running).toBe(false);
  });
});
