import { copyFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformKeys, platformTransactions, tokens, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { startDevChain, type DevChain } from '@connect/devchain';
import type { TCreateTokenResponse, TTokenDetails } from '@connect/shared';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { buildApp } from '../../app.ts';
import { testConfig, type TestContext } from '../../../test/helpers.ts';
import { TokenRepository } from './repository.ts';
import { settleLost } from './settlement.ts';
import {
  creditEntries,
  creditsOf as ledgerCreditsOf,
  deployActive,
  deployFromTestWallet,
  details,
  networkId,
  newTokenUser,
  postToken,
  settled,
  tiersOf,
  type TokenUser,
} from './test-support.ts';

type Receipt = { contractAddress: string; status: string };

/**
 * A chain that comes back from an older state (what a kill -9 does to a local anvil chain) lost
 * transactions the database counts on: at the next start the platform's are sent again from what
 * it stored (same hash, same contract), one whose nonce was taken meanwhile fails and is refunded,
 * and a wallet's deployment that is gone is shown MISSING.
 */
describe('tokenise: the database and a chain that lost transactions agree again at start-up', () => {
  const CHAIN_ID = 41_900;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chain-recovery-'));
  const stateFile = path.join(dir, 'chain.json');
  let chain: DevChain;
  let port = 0;
  let db: DbHandle;
  let t: TestContext;
  let user: TokenUser;
  let ethTest = '';
  let baseTier = '';

  const startChain = async () => {
    chain = await startDevChain({ chainId: CHAIN_ID, port, stateFile });
    port = chain.port;
  };
  /** The chain stops (saving its state) and comes back from `from`: a state saved earlier. */
  const restartChainFrom = async (from?: string) => {
    await chain.stop();
    if (from) copyFileSync(from, stateFile);
    await startChain();
  };
  const startApp = async () => {
    const config = testConfig({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(CHAIN_ID),
    });
    const app = await buildApp({ config, db, logger: false });
    await app.ready(); // the start-up recovery runs here
    t = { app, db, close: () => app.close() };
  };
  const restartApp = async () => {
    await t.close();
    await startApp();
  };
  const saveState = async (name: string) => {
    await restartChainFrom(); // stopping writes the state file
    const copy = path.join(dir, name);
    copyFileSync(stateFile, copy);
    return copy;
  };
  const deploy = (form: Record<string, unknown> = {}): Promise<TTokenDetails> =>
    deployActive(t, user, { networkId: ethTest, tierId: baseTier }, form);
  const call = <T>(method: string, params: unknown[]) => rpcCall<T>(chain.rpcUrl, method, params);
  const codeAt = (address: string | null) => call<Hex>('eth_getCode', [address, 'latest']);
  const creditsOf = () => ledgerCreditsOf(db.db, user.accountId);

  beforeAll(async () => {
    await startChain();
    db = await createTestDatabase();
    await startApp();
    ethTest = await networkId(t, 'ethereum-testnet');
    user = await newTokenUser(t, { networks: [ethTest], quota: null, credits: 1_000 });
    baseTier = (await tiersOf(t, user, ethTest, 'QRC20')).find((c) => c.type === 'base')!.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await chain?.stop();
  });

  it('sends a lost platform transaction again (same hash, same contract) and marks a lost wallet deployment MISSING', async () => {
    const kept = await deploy({ name: 'Kept Bond', unit: 'KPT' }); // also funds the deployer
    const older = await saveState('older.json');

    const lost = await deploy({ name: 'Lost Bond', unit: 'LST' });
    // A wallet's deployment in the same stretch of history.
    const walletRes = await postToken(
      t,
      user,
      { networkId: ethTest, tierId: baseTier, deploymentType: 'META_MASK' },
      { name: 'Wallet Bond', unit: 'WLT' },
    );
    const { token: walletToken, deployment } = walletRes.json<TCreateTokenResponse>();
    await deployFromTestWallet(
      t,
      user,
      { rpcUrl: chain.rpcUrl, chainId: CHAIN_ID },
      { externalId: walletToken.externalId, data: deployment!.data },
    );
    expect((await settled(t, user, walletToken.id)).status).toBe('ACTIVE');

    // The chain comes back from the older state: both deployments are gone from it.
    await restartChainFrom(older);
    expect(await call('eth_getTransactionByHash', [lost.transactionId])).toBeNull();
    expect(await codeAt(lost.smartContractAddress)).toBe('0x');
    expect(await codeAt(kept.smartContractAddress)).not.toBe('0x');

    await restartApp();

    // The platform's own deployment is back: the same transaction, the same contract.
    const receipt = await call<Receipt>('eth_getTransactionReceipt', [lost.transactionId]);
    expect(receipt).toMatchObject({ status: '0x1', contractAddress: lost.smartContractAddress!.toLowerCase() });
    expect(await codeAt(lost.smartContractAddress)).not.toBe('0x');
    expect(await details(t, user, lost.id)).toMatchObject({ status: 'ACTIVE', creditsCharged: lost.creditsCharged });
    // The wallet's cannot be sent by the platform: it is shown missing, not Active, and what it
    // was charged comes back — nothing it paid for is on chain.
    expect(await details(t, user, walletToken.id)).toMatchObject({ status: 'MISSING', creditsCharged: 0 });
    expect((await details(t, user, kept.id)).status).toBe('ACTIVE');
    const walletRefunds = async () =>
      (await creditEntries(db.db, user.accountId))
        .filter((r) => r.reference === `refund:token:${walletToken.id}`)
        .map((r) => [r.kind, r.amount]);
    expect(await walletRefunds()).toEqual([['refund', 5]]);
    const creditsAfterRefund = await creditsOf();

    // Once: a second recovery, or the same token failing later, gives nothing more back.
    await restartApp();
    const [missingRow] = await db.db.select().from(tokens).where(eq(tokens.id, walletToken.id));
    expect(await settleLost(new TokenRepository(db.db, t.app.deps.events), missingRow!, 'Nonce taken.')).toBe(true);
    expect(await walletRefunds()).toEqual([['refund', 5]]);
    expect(await creditsOf()).toBe(creditsAfterRefund);

    // The nonce manager resynced: the next deployment goes through.
    await deploy({ name: 'After Bond', unit: 'AFT' });
  });

  it('fails and refunds a deployment whose nonce another transaction took while it was lost', async () => {
    await deploy({ name: 'Warm Bond', unit: 'WRM' });
    const older = await saveState('older-2.json');
    const creditsBefore = await creditsOf();
    const lost = await deploy({ name: 'Taken Bond', unit: 'TKN' });
    expect(await creditsOf()).toBe(creditsBefore - lost.creditsCharged);
    const [stored] = await db.db
      .select()
      .from(platformTransactions)
      .where(eq(platformTransactions.txHash, lost.transactionId!));
    expect(stored).toMatchObject({ reference: `token:${lost.id}`, status: 'MINED' });

    // The chain forgets it, and the deployer's key spends that nonce on something else.
    await restartChainFrom(older);
    const [key] = await db.db.select().from(platformKeys);
    const deployer = privateKeyToAccount(t.app.deps.box.open(key!.sealedPrivateKey) as Hex);
    const other = createWalletClient({
      account: deployer,
      chain: defineChain({
        id: CHAIN_ID,
        name: 'test',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      }),
      transport: http(chain.rpcUrl),
    });
    await other.sendTransaction({ to: deployer.address, value: 1n, nonce: stored!.nonce });

    await restartApp();

    const failed = await details(t, user, lost.id);
    expect(failed).toMatchObject({ status: 'FAILED', creditsCharged: 0 });
    expect(failed.failureReason).toMatch(/lost/);
    expect(await creditsOf()).toBe(creditsBefore);
    const refunds = (await creditEntries(db.db, user.accountId)).filter(
      (r) => r.reference === `refund:token:${lost.id}`,
    );
    expect(refunds.map((r) => [r.kind, r.amount])).toEqual([['refund', lost.creditsCharged]]);
    const [row] = await db.db
      .select()
      .from(platformTransactions)
      .where(eq(platformTransactions.txHash, lost.transactionId!));
    expect(row!.status).toBe('FAILED');
  });
});
