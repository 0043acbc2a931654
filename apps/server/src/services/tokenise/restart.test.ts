import { randomUUID } from 'node:crypto';
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
import {
  creditEntries,
  creditsOf,
  deployFromTestWallet,
  details,
  networkId,
  newTokenUser,
  postToken,
  qrc20Form,
  setCredits,
  settled,
  tiersOf,
  type TokenUser,
} from './test-support.ts';

/**
 * Deployments survive a restart: the server stops while transactions wait to be mined (the chain's
 * automine is off), a new server on the same database picks them up, and they end ACTIVE, charged once.
 */
describe('tokenise: deployments across a restart', () => {
  let chain: TestChain;
  let db: DbHandle;
  let t: TestContext;
  const config = () =>
    testConfig({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
    });
  const startApp = async (): Promise<TestContext> => {
    const app = await buildApp({ config: config(), db, logger: false });
    await app.ready();
    return { app, db, close: () => app.close() };
  };

  beforeAll(async () => {
    chain = await startTestChain();
    db = await createTestDatabase();
    t = await startApp();
    // The installation's deployer is funded before its first deployment; these tests pause mining
    // before theirs, so it is funded here, while the chain still mines.
    const [key] = await db.db.select().from(platformKeys);
    await fundFromFaucet(chain.rpcUrl, key!.address as Hex);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await chain?.stop();
  });

  const txHashOf = (id: string) =>
    vi.waitFor(
      async () => {
        const [row] = await db.db.select({ txHash: tokens.txHash }).from(tokens).where(eq(tokens.id, id));
        if (!row?.txHash) throw new Error('no transaction was sent');
        return row.txHash;
      },
      { timeout: 10_000, interval: 50 },
    );

  it('ends ACTIVE after the server restarted while PENDING (platform and wallet)', async () => {
    const ethTest = await networkId(t, 'ethereum-testnet');
    const user: TokenUser = await newTokenUser(t, { networks: [ethTest] });
    const [base] = await tiersOf(t, user, ethTest, 'QRC20');
    await rpcCall(chain.rpcUrl, 'evm_setAutomine', [false]);

    const quant = await postToken(t, user, { networkId: ethTest, tierId: base!.id });
    expect(quant.statusCode, quant.body).toBe(201);
    const quantId = quant.json<TCreateTokenResponse>().token.id;
    const quantHash = await txHashOf(quantId);

    const walletPayload = {
      externalId: randomUUID(),
      networkId: ethTest,
      tierId: base!.id,
      tokenType: 'QRC20',
      deploymentType: 'META_MASK',
      ...qrc20Form({ name: 'Wallet Bond', unit: 'WLB' }),
    };
    const walletRes = await t.app.inject({
      method: 'POST',
      url: '/api/tokenise/v2/token',
      headers: user.headers,
      payload: walletPayload,
    });
    const { token: walletToken, deployment } = walletRes.json<TCreateTokenResponse>();
    const walletHash = await deployFromTestWallet(t, user, chain, {
      externalId: walletPayload.externalId,
      data: deployment!.data,
    });
    expect((await details(t, user, quantId)).status).toBe('PENDING');

    const closing = Date.now();
    await t.close();
    expect(Date.now() - closing).toBeLessThan(15_000);

    t = await startApp();
    await rpcCall(chain.rpcUrl, 'evm_setAutomine', [true]);
    await rpcCall(chain.rpcUrl, 'evm_mine', []);

    const quantDone = await settled(t, user, quantId);
    expect(quantDone).toMatchObject({ status: 'ACTIVE', transactionId: quantHash, creditsCharged: 10 });
    const walletDone = await settled(t, user, walletToken.id);
    expect(walletDone).toMatchObject({ status: 'ACTIVE', transactionId: walletHash.toLowerCase(), creditsCharged: 5 });

    const charges = await creditEntries(db.db, user.accountId);
    expect(
      charges
        .filter((c) => c.amount < 0)
        .map((c) => c.amount)
        .sort(),
    ).toEqual([-10, -5]);
    expect(await creditsOf(db.db, user.accountId)).toBe(TRIAL_CREDITS - 15);
  });

  it('keeps a deployment paid when the rest of the credits are spent before it is mined (taken at creation)', async () => {
    const ethTest = await networkId(t, 'ethereum-testnet');
    const user = await newTokenUser(t, { networks: [ethTest] });
    const [base] = await tiersOf(t, user, ethTest, 'QRC20');
    await rpcCall(chain.rpcUrl, 'evm_setAutomine', [false]);
    try {
      const res = await postToken(t, user, { networkId: ethTest, tierId: base!.id });
      const id = res.json<TCreateTokenResponse>().token.id;
      await txHashOf(id);
      expect(await creditsOf(db.db, user.accountId)).toBe(TRIAL_CREDITS - 10);
      await setCredits(db.db, user.accountId, 0);
      await rpcCall(chain.rpcUrl, 'evm_mine', []);
      const done = await settled(t, user, id);
      expect(done).toMatchObject({ status: 'ACTIVE', creditsCharged: 10 });
      expect(await creditsOf(db.db, user.accountId)).toBe(0);
      const charges = (await creditEntries(db.db, user.accountId)).filter((e) => e.reference === `token:${id}`);
      expect(charges.map((e) => e.amount)).toEqual([-10]);
    } finally {
      await rpcCall(chain.rpcUrl, 'evm_setAutomine', [true]);
    }
  });
});
