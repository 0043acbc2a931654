import type { Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformKeys, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { testConfig, type TestContext } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { deployActive, networkId, newTokenUser, tiersOf } from '../../services/tokenise/test-support.ts';
import { DEPLOYER_FUNDING, LOCAL_DEPLOYER_KEY } from './platform-deployer.ts';
import { rpcCall } from './rpc.ts';

/** The platform's deployer on the local chains is a key of the installation, not anvil's public one. */
describe('the platform deployer on local chains', () => {
  let chain: TestChain;
  const opened: DbHandle[] = [];
  const running: TestContext[] = [];

  beforeAll(async () => {
    chain = await startTestChain();
  });
  afterAll(async () => {
    for (const t of running) await t.app.close();
    for (const db of opened) await db.close();
    await chain?.stop();
  });

  const newDatabase = async () => {
    const db = await createTestDatabase();
    opened.push(db);
    return db;
  };
  const start = async (db: DbHandle, env: Record<string, string> = {}): Promise<TestContext> => {
    const config = testConfig({
      NETWORK_RPC_ETHEREUM_TESTNET: chain.rpcUrl,
      NETWORK_CHAIN_ID_ETHEREUM_TESTNET: String(chain.chainId),
      ...env,
    });
    const app = await buildApp({ config, db, logger: false });
    await app.ready();
    const t = { app, db, close: () => app.close() };
    running.push(t);
    return t;
  };
  const stop = async (t: TestContext) => {
    running.splice(running.indexOf(t), 1);
    await t.close();
  };
  const storedKeys = (db: DbHandle) => db.db.select().from(platformKeys);
  const balanceOf = async (address: string) =>
    BigInt(await rpcCall<Hex>(chain.rpcUrl, 'eth_getBalance', [address, 'latest']));
  const deploy = async (t: TestContext) => {
    const ethTest = await networkId(t, 'ethereum-testnet');
    const user = await newTokenUser(t, { networks: [ethTest] });
    const [base] = await tiersOf(t, user, ethTest, 'QRC20');
    const token = await deployActive(t, user, { networkId: ethTest, tierId: base!.id });
    const tx = await rpcCall<{ from: string }>(chain.rpcUrl, 'eth_getTransactionByHash', [token.transactionId]);
    return { token, from: tx.from };
  };

  it('is generated per installation, kept sealed across restarts, funded from the faucet, and deploys', async () => {
    const dbA = await newDatabase();
    const dbB = await newDatabase();
    const a = await start(dbA);
    const b = await start(dbB);
    const [keyA] = await storedKeys(dbA);
    const [keyB] = await storedKeys(dbB);
    expect(keyA).toMatchObject({ name: LOCAL_DEPLOYER_KEY });
    expect(keyB).toMatchObject({ name: LOCAL_DEPLOYER_KEY });
    // Two installations, two keys, neither one of anvil's public accounts.
    expect(keyA!.address).not.toBe(keyB!.address);
    const publicAddresses = DEV_ACCOUNTS.map((account) => account.address);
    expect(publicAddresses).not.toContain(keyA!.address);

    // Sealed at rest: not the plaintext, and it opens to the key of that address.
    const plain = a.app.deps.box.open(keyA!.sealedPrivateKey) as Hex;
    expect(privateKeyToAddress(plain)).toBe(keyA!.address);
    expect(keyA!.sealedPrivateKey).not.toContain(plain.slice(2));
    expect(keyA!.sealedPrivateKey).not.toContain(plain.slice(2).toUpperCase());

    // Deployments are sent from it, funded from the faucet before the first one.
    expect(await balanceOf(keyA!.address)).toBe(0n);
    const first = await deploy(a);
    const afterFirst = await balanceOf(keyA!.address);
    expect(afterFirst).toBeGreaterThan(DEPLOYER_FUNDING.amount - 10n ** 17n);
    expect(afterFirst).toBeLessThan(DEPLOYER_FUNDING.amount);
    expect(first.from.toLowerCase()).toBe(keyA!.address.toLowerCase());
    expect(first.token.deployerAddress?.toLowerCase()).toBe(keyA!.address.toLowerCase());
    expect((await deploy(b)).from.toLowerCase()).toBe(keyB!.address.toLowerCase());

    // The same installation keeps its key across a restart.
    await stop(a);
    const again = await start(dbA);
    expect(await storedKeys(dbA)).toEqual([keyA]);
    expect((await deploy(again)).from.toLowerCase()).toBe(keyA!.address.toLowerCase());
    // Not topped up again: still well above the threshold.
    expect(await balanceOf(keyA!.address)).toBeLessThan(afterFirst);
  });

  it('is replaced by a configured DEPLOYER_PRIVATE_KEY_<CODE>, and then none is generated', async () => {
    const db = await newDatabase();
    const configured = DEV_ACCOUNTS[3]!;
    const t = await start(db, { DEPLOYER_PRIVATE_KEY_ETHEREUM_TESTNET: configured.privateKey });
    expect(await storedKeys(db)).toEqual([]);
    expect((await deploy(t)).from.toLowerCase()).toBe(configured.address.toLowerCase());
  });
});
