import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { platformKeys, tokens, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import type { TCreateTokenResponse } from '@connect/shared';
import { fundFromFaucet } from '../../adapters/chains/platform-deployer.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { buildApp } from '../../app.ts';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { testConfig, type TestContext } from '../../../test/helpers.ts';
import { TRIAL_CREDITS } from '../../lib/trial-credits.ts';
import { creditsOf, networkId, newTokenUser, postToken, settled, tiersOf } from './test-support.ts';

/**
 * Issue 31: a deployment is durable from the moment a node accepts it. Two nodes on one database
 * and one chain; the node that accepted deployments stops while their transactions wait to be
 * mined — before its in-process attempt hands anything over — and the other node, never
 * restarted, finishes them: ACTIVE, charged once.
 */
describe('tokenise: a deployment outlives the node that accepted it', () => {
  let chain: TestChain;
  let db: DbHandle;
  let first: TestContext;
  let second: TestContext;
  const startNode = async (): Promise<TestContext> => {
    const app = await buildApp({
      config: testConfig({
        NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
        NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
      }),
      db,
      logger: false,
    });
    await app.ready();
    return { app, db, close: () => app.close() };
  };

  beforeAll(async () => {
    chain = await startTestChain();
    db = await createTestDatabase();
    first = await startNode();
    second = await startNode();
    const [key] = await db.db.select().from(platformKeys);
    await fundFromFaucet(chain.rpcUrl, key!.address as Hex);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await db?.close();
    await chain?.stop();
  });

  it('the surviving node ends them ACTIVE, each charged once, without a restart', async () => {
    const ethTest = await networkId(first, 'ethereum-testnet');
    const user = await newTokenUser(first, { networks: [ethTest] });
    const [base] = await tiersOf(first, user, ethTest, 'QRC20');
    await rpcCall(chain.rpcUrl, 'evm_setAutomine', [false]);
    const ids: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const res = await postToken(first, user, { networkId: ethTest, tierId: base!.id });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json<TCreateTokenResponse>().token.id);
      }
      await vi.waitFor(
        async () => {
          const rows = await db.db
            .select({ txHash: tokens.txHash })
            .from(tokens)
            .where(eq(tokens.accountId, user.accountId));
          expect(rows.filter((row) => row.txHash)).toHaveLength(ids.length);
        },
        { timeout: 10_000, interval: 50 },
      );
      // The accepting node goes while its attempts wait for receipts, well within their head start.
      await first.close();
    } finally {
      await rpcCall(chain.rpcUrl, 'evm_setAutomine', [true]);
    }
    await rpcCall(chain.rpcUrl, 'evm_mine', []);

    // Within the bound (a minute after the node went), read through the node that stayed.
    for (const id of ids) {
      expect(await settled(second, user, id, 60_000)).toMatchObject({ status: 'ACTIVE', creditsCharged: 10 });
    }
    expect(await creditsOf(db.db, user.accountId)).toBe(TRIAL_CREDITS - 10 * ids.length);
  }, 120_000);
});
