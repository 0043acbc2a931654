import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChain } from '../../test/chains.ts';
import { createTestApp, testConfig, type TestContext } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { startQntTestApp, stopQntTestApp } from '../services/payment/test-support.ts';
import type { App } from '../types.ts';

type Health = {
  status: string;
  database: { status: string };
  node: { jobs: boolean; followers: { name: string; chainId: number; isHeld: boolean }[] };
};

const health = async (app: App) => {
  const res = await app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Health>();
};

/**
 * Issue 31: GET /api/health tells an operator what of the background work runs on the node it
 * asks: whether its job queue runs, and which chain followers it follows now (holds the lock of).
 */
describe('GET /api/health: the background work this node runs', () => {
  it('a node with no background work says so', async () => {
    const t = await createTestApp();
    try {
      expect((await health(t.app)).node).toEqual({ jobs: false, followers: [] });
    } finally {
      await t.close();
    }
  });

  describe('two nodes taking QNT on one database', () => {
    let chain: TestChain | undefined;
    let first: TestContext | undefined;
    let second: App | undefined;
    beforeAll(async () => {
      const env = { QNT_CONFIRMATIONS: '1' };
      let token: string;
      ({ chain, token, t: first } = await startQntTestApp(env));
      second = await buildApp({
        config: testConfig({
          NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
          NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
          QNT_TOKEN_ADDRESS: token,
          ...env,
        }),
        db: first.db,
        logger: false,
      });
      await second.ready();
    }, 120_000);
    afterAll(async () => {
      await second?.close();
      await stopQntTestApp(first, chain);
    });

    it('both run jobs; one of them follows the chain and holds its lock, the other says it does not', async () => {
      const follower = { name: 'qnt-deposits', chainId: chain!.chainId };
      // Beside it, each node follows the reward payouts of the treasury (issue 34): not this test's.
      const both = async () =>
        [(await health(first!.app)).node, (await health(second!)).node].map((node) => ({
          ...node,
          followers: node.followers.filter((f) => f.name === follower.name),
        }));
      // The follower's run is a job of the queue both nodes share: either node's worker may take it.
      await expect
        .poll(async () => (await both()).flatMap((node) => node.followers).filter((f) => f.isHeld).length, {
          timeout: 15_000,
        })
        .toBe(1);
      const nodes = await both();
      expect(nodes.map((node) => node.jobs)).toEqual([true, true]);
      expect(nodes.map((node) => node.followers)).toEqual(
        expect.arrayContaining([[{ ...follower, isHeld: true }], [{ ...follower, isHeld: false }]]),
      );
    });
  });
});
