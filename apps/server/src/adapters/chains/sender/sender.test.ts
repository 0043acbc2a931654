import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { networks, platformTransactions, type DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { startTestChain, type TestChain } from '../../../../test/chains.ts';
import { syncNetworkCatalogue } from '../catalogue-sync.ts';
import { NETWORK_SEEDS, type ConfiguredNetwork } from '../catalogue.ts';
import { rpcCall, RpcError } from '../rpc.ts';
import {
  PlatformSender,
  platformTxRow,
  type SendRequest,
  type SenderNetwork,
  type TxFields,
  type TxMoved,
} from './index.ts';
import { SenderTxRepository } from './repository.ts';
import { serializable } from './send.ts';

/**
 * The platform's one transaction sender against a real local chain: nonces shared by concurrent
 * senders of one key, store before send, receipts across fee-bump replacements, what a chain lost
 * sent again.
 */
const log = pino({ level: 'silent' });
const KEY = DEV_ACCOUNTS[3]!.privateKey;
const FROM = DEV_ACCOUNTS[3]!.address;
const TO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const GWEI = 10n ** 9n;

let chain: TestChain;
let db: DbHandle;
let network: SenderNetwork;
let configured: ConfiguredNetwork;

const call = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
const nonceOf = async (tag: 'latest' | 'pending') => BigInt(await call<Hex>('eth_getTransactionCount', [FROM, tag]));
/** The key's mined nonce once it reaches `target`, or what it is after two seconds of trying. */
async function latestNonceReaching(target: bigint): Promise<bigint> {
  let latest = await nonceOf('latest');
  await vi
    .waitFor(
      async () => {
        latest = await nonceOf('latest');
        if (latest < target) throw new Error(`nonce ${latest} short of ${target}`);
      },
      { timeout: 2_000, interval: 20 },
    )
    .catch(() => undefined);
  return latest;
}
const rowsOf = (reference: string) =>
  db.db.select().from(platformTransactions).where(eq(platformTransactions.reference, reference));

/** A sender of this app, or of another node or a later start (a new instance: nothing in memory). */
const newSender = (owners: Record<string, { moved: TxMoved[]; lost: string[] }> = {}) => {
  const sender = new PlatformSender({ db: db.db, networks: [configured], log });
  for (const [prefix, heard] of Object.entries(owners)) {
    sender.own(prefix, {
      moved: async (change) => void heard.moved.push(change),
      lost: async (reference) => void heard.lost.push(reference),
    });
  }
  return sender;
};

/** Calls to the chain where a send is stored, then "times out": the chain never gets it. */
const lostCall = async <T>(method: string, params: unknown[]) => {
  if (method === 'eth_sendRawTransaction') throw new RpcError('TIMEOUT', 'the node did not answer');
  return call<T>(method, params);
};

/** A plain transfer, signed by the sender with the test key; `options` changes its fields or how it is sent. */
const transfer = (
  sender: PlatformSender,
  reference: string,
  options: Partial<TxFields> & Pick<SendRequest, 'call' | 'store'> = {},
) => {
  const { call: calls, store, ...fields } = options;
  return sender.send({
    network,
    signer: sender.signerFor(network)!,
    reference,
    fields: {
      to: TO,
      value: 1n,
      gas: 21_000n,
      fees: { maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI },
      ...fields,
    },
    call: calls,
    store,
  });
};

/** Another process (another node, a script) sends with the test key, past the sender. */
const sendElsewhere = async (nonce: bigint) => {
  const raw = await privateKeyToAccount(KEY).signTransaction({
    chainId: chain.chainId,
    nonce: Number(nonce),
    to: TO,
    value: 4n,
    gas: 21_000n,
    maxFeePerGas: 20n * GWEI,
    maxPriorityFeePerGas: GWEI,
  });
  await call('eth_sendRawTransaction', [raw]);
};

beforeAll(async () => {
  chain = await startTestChain();
  db = await createTestDatabase();
  const seed = NETWORK_SEEDS.find((n) => n.code === 'ethereum-testnet')!;
  configured = {
    ...seed,
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    rpcFromEnv: true,
    deployerPrivateKey: KEY,
    deployerKeyFromEnv: true,
    isLocal: true,
  };
  await syncNetworkCatalogue(db.db, [configured]);
  const [row] = await db.db.select().from(networks).where(eq(networks.code, seed.code));
  network = { id: row!.id, code: seed.code, chainId: chain.chainId, rpcUrl: chain.rpcUrl };
}, 60_000);
afterAll(async () => {
  await db?.close();
  await chain?.stop();
});
beforeEach(async () => {
  await call('evm_setAutomine', [true]);
});

describe('PlatformSender', () => {
  it('gives two jobs sending from the same key at once consecutive nonces: no gap, no reuse', async () => {
    const sender = newSender();
    const start = await nonceOf('pending');
    const job = async (name: string) => {
      const sent: bigint[] = [];
      for (let i = 0; i < 8; i++) sent.push((await transfer(sender, `${name}:${i}`))!.tx.nonce);
      return sent;
    };
    const [a, b] = await Promise.all([job('job-a'), job('job-b')]);
    const all = [...a, ...b].sort((x, y) => Number(x - y));
    expect(all).toEqual(Array.from({ length: 16 }, (_, i) => start + BigInt(i)));
    // Each job's own sends went out in order.
    expect(a).toEqual([...a].sort((x, y) => Number(x - y)));
    // All sixteen are mined (anvil may answer a send just before its block is sealed: wait for it).
    expect(await latestNonceReaching(start + 16n)).toBe(start + 16n);
    expect(await rowsOf('job-a:7')).toHaveLength(1);
  });

  it('reads the nonce from the chain at start-up, and again after another process used the key', async () => {
    const first = newSender();
    await transfer(first, 'resync:1');
    // Another process (another node, a script) sends with the same key meanwhile.
    await sendElsewhere(await nonceOf('pending'));
    await sendElsewhere(await nonceOf('pending'));
    const expected = await nonceOf('pending');

    // A new start reads the chain's nonce.
    const restarted = await transfer(newSender(), 'resync:2');
    expect(restarted!.tx.nonce).toBe(expected);
    // The first sender's counter is behind: the node refuses it, the sender reads the chain and signs again.
    const stale = await transfer(first, 'resync:3');
    expect(stale!.tx.nonce).toBe(expected + 1n);
    expect(await latestNonceReaching(expected + 2n)).toBe(expected + 2n);
    expect((await rowsOf('resync:3')).map((r) => r.nonce)).toEqual([Number(expected + 1n)]);
  });

  it('stores every transaction before it is sent; a refused store sends nothing', async () => {
    const sender = newSender();
    let storedWhenSent: number | undefined;
    const watching = async <T>(method: string, params: unknown[]) => {
      if (method === 'eth_sendRawTransaction') storedWhenSent = (await rowsOf('stored:1')).length;
      return call<T>(method, params);
    };
    const sent = await transfer(sender, 'stored:1', { call: watching });
    expect(storedWhenSent).toBe(1);
    expect(await rowsOf('stored:1')).toEqual([expect.objectContaining({ txHash: sent!.tx.hash, rawTx: sent!.tx.raw })]);

    const before = await nonceOf('pending');
    const refused = await transfer(sender, 'stored:2', { store: async () => false });
    expect(refused).toBeNull();
    expect(await nonceOf('pending')).toBe(before);
    // The nonce stayed free: the next send takes it.
    expect((await transfer(sender, 'stored:3'))!.tx.nonce).toBe(before);
  });

  it('sends again at start-up what the chain lost, and tells the owner of one whose nonce was taken', async () => {
    const heard = { moved: [] as TxMoved[], lost: [] as string[] };
    const sender = newSender({ lost: heard });
    const lost = await transfer(sender, 'lost:resent', { call: lostCall });
    expect(lost!.ambiguous).toBe(true);
    expect(await call('eth_getTransactionByHash', [lost!.tx.hash])).toBeNull();

    const result = await newSender({ lost: heard }).recover({ ...network, isLocal: false });
    expect(result.resent.map((r) => r.txHash)).toEqual([lost!.tx.hash]);
    expect(await call('eth_getTransactionReceipt', [lost!.tx.hash])).toMatchObject({ status: '0x1' });

    // Lost again, and this time another transaction of the key takes its nonce first.
    const taken = await transfer(sender, 'lost:taken', { call: lostCall });
    await sendElsewhere(taken!.tx.nonce);
    const again = await newSender({ lost: heard }).recover({ ...network, isLocal: false });
    expect(again.conflicts.map((r) => r.reference)).toEqual(['lost:taken']);
    expect(heard.lost).toEqual(['lost:taken']);
    expect((await rowsOf('lost:taken'))[0]!.status).toBe('FAILED');
  });

  it('at start-up, points the owner at the replacement the chain knows when the original was lost', async () => {
    const heard = { moved: [] as TxMoved[], lost: [] as string[] };
    const sender = newSender({ crash: heard });
    // The chain never got the original…
    const lostOne = (await transfer(sender, 'crash:2', { call: lostCall }))!.tx;
    // …but a fee bump's replacement was stored and sent, and the process died before it marked the
    // original REPLACED and told the owner.
    const replacement = await sender
      .signerFor(network)!
      .signTransaction(
        serializable(
          chain.chainId,
          { to: TO, value: 5n, gas: 21_000n, fees: { maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: 2n * GWEI } },
          lostOne.nonce,
        ),
      );
    await new SenderTxRepository(db.db).insert(
      platformTxRow({ networkId: network.id, from: FROM, nonce: lostOne.nonce, reference: 'crash:2', ...replacement }),
    );
    await call('eth_sendRawTransaction', [replacement.raw]);

    const result = await newSender({ crash: heard }).recover({ ...network, isLocal: false });
    expect(result).toEqual({ resent: [], conflicts: [] });
    expect(heard).toEqual({
      moved: [{ reference: 'crash:2', networkId: network.id, hash: replacement.hash, was: [lostOne.hash] }],
      lost: [],
    });
    expect(Object.fromEntries((await rowsOf('crash:2')).map((r) => [r.txHash, r.status]))).toEqual({
      [lostOne.hash]: 'REPLACED',
      [replacement.hash]: 'SIGNED',
    });
  });

  it('replaces a stuck transaction with higher fees, stored first, and its owner and followers hear of it', async () => {
    const heard = { moved: [] as TxMoved[], lost: [] as string[] };
    const sender = newSender({ stuck: heard });
    await call('evm_setAutomine', [false]);
    const base = BigInt((await call<{ baseFeePerGas: Hex }>('eth_getBlockByNumber', ['pending', false])).baseFeePerGas);
    const lowFees = { maxFeePerGas: base, maxPriorityFeePerGas: 1n };
    const head = (await transfer(sender, 'stuck:head', { fees: lowFees }))!.tx;
    const behind = (await transfer(sender, 'stuck:behind', { fees: lowFees }))!.tx;
    expect(behind.nonce).toBe(head.nonce + 1n);

    // Another node follows the old hash: it finds the replacement through the database.
    const follower = newSender().waitForReceipt(network, head.hash, { maxWaitMs: 30_000 });
    const bumps = await sender.bumpStuck({ olderThanMs: 0 });
    // Only the head of the key's queue: the one behind waits for it, not for fees.
    expect(bumps).toEqual([
      expect.objectContaining({ reference: 'stuck:head', was: head.hash, nonce: Number(head.nonce) }),
    ]);
    const replacement = bumps[0]!.hash;
    expect(replacement).not.toBe(head.hash);
    const rows = await rowsOf('stuck:head');
    expect(rows.map((r) => [r.txHash, r.nonce, r.status])).toEqual(
      expect.arrayContaining([
        [head.hash, Number(head.nonce), 'REPLACED'],
        [replacement, Number(head.nonce), 'SIGNED'],
      ]),
    );
    expect(heard.moved).toEqual([
      { reference: 'stuck:head', networkId: network.id, hash: replacement, was: [head.hash] },
    ]);
    const chainTx = await call<{ maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }>('eth_getTransactionByHash', [
      replacement,
    ]);
    expect(BigInt(chainTx.maxFeePerGas)).toBeGreaterThanOrEqual(base + (base + 7n) / 8n);
    expect(BigInt(chainTx.maxPriorityFeePerGas)).toBeGreaterThanOrEqual(2n);

    // This node's follower of the old hash knows of the replacement at once.
    const here = sender.waitForReceipt(network, head.hash, { maxWaitMs: 30_000 });
    await call('evm_mine');
    await expect(here).resolves.toMatchObject({ hash: replacement, receipt: { status: '0x1' } });
    await expect(follower).resolves.toMatchObject({ hash: replacement, receipt: { status: '0x1' } });
    expect(await call('eth_getTransactionReceipt', [head.hash])).toBeNull();
    expect(await call('eth_getTransactionReceipt', [behind.hash])).toMatchObject({ status: '0x1' });
    // Nothing is stuck any more.
    await sender.settle(network.id, replacement, 'MINED');
    await sender.settle(network.id, behind.hash, 'MINED');
    expect(await sender.bumpStuck({ olderThanMs: 0 })).toEqual([]);
  });
});
