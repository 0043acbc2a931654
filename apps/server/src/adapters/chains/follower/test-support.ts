import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http as viemHttp,
  toEventSelector,
  type Abi,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll } from 'vitest';
import type { DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { deployData, getTier } from '@connect/contracts';
import { DEPLOYER_ADDRESS, DEPLOYER_PRIVATE_KEY } from '@connect/devchain';
import { startTestChain, type TestChain } from '../../../../test/chains.ts';
import { rpcCall } from '../rpc.ts';
import type { FollowedLog, Follower } from './types.ts';

export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
const ABI = getTier('QRC20', 'base').abi as Abi;

/** A recipient address for the n-th test transfer (a deposit address, as far as the chain cares). */
export const recipient = (n: number): Hex => `0x${(0x1000 + n).toString(16).padStart(40, '0')}`;

/**
 * One anvil chain with a QRC20 token (the deployer holds the supply) and one test database with
 * a table the test owners write through the follower's transaction (`follower_test_seen`, one row
 * per delivered log: a second delivery breaks its primary key).
 */
export function useFollowerSuite() {
  const s = {} as {
    chain: TestChain;
    dbh: DbHandle;
    token: Hex;
    /** The block after the token's deployment: where test followers start. */
    startBlock: bigint;
  };
  beforeAll(async () => {
    [s.chain, s.dbh] = await Promise.all([startTestChain(), createTestDatabase()]);
    await s.dbh.execute(
      `create table follower_test_seen (follower text not null, block_number bigint not null, tx_hash text not null,
         log_index int not null, primary key (follower, tx_hash, log_index))`,
    );
    const hash = await wallet().sendTransaction({
      data: deployData('QRC20', 'base', {
        name: 'Quant',
        symbol: 'QNT',
        decimals: 18,
        initialSupply: 10n ** 24n,
        supplyHolder: DEPLOYER_ADDRESS,
      }),
    });
    const receipt = await publicClient().waitForTransactionReceipt({ hash });
    s.token = receipt.contractAddress!.toLowerCase() as Hex;
    s.startBlock = receipt.blockNumber + 1n;
  });
  afterAll(async () => {
    await s.dbh?.close();
    await s.chain?.stop();
  });

  const viemChain = () =>
    defineChain({
      id: s.chain.chainId,
      name: 'test',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [s.chain.rpcUrl] } },
    });
  const wallet = () =>
    createWalletClient({
      account: privateKeyToAccount(DEPLOYER_PRIVATE_KEY),
      chain: viemChain(),
      transport: viemHttp(s.chain.rpcUrl),
    });
  const publicClient = () => createPublicClient({ chain: viemChain(), transport: viemHttp(s.chain.rpcUrl) });

  const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(s.chain.rpcUrl, method, params);

  /** A mined token transfer (anvil mines a block per transaction): its hash and block. */
  async function transfer(to: Hex, amount = 1n): Promise<{ hash: Hex; block: bigint }> {
    const hash = await wallet().writeContract({
      address: s.token,
      abi: ABI,
      functionName: 'transfer',
      args: [to, amount],
    });
    const receipt = await publicClient().waitForTransactionReceipt({ hash });
    return { hash: hash.toLowerCase() as Hex, block: receipt.blockNumber };
  }

  /** The transaction object of a transfer, for anvil_reorg's replacement blocks. */
  const transferTx = (to: Hex, amount = 1n) => ({
    from: DEPLOYER_ADDRESS,
    to: s.token,
    data: encodeFunctionData({ abi: ABI, functionName: 'transfer', args: [to, amount] }),
  });

  const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
  const head = async () => BigInt(await rpc<string>('eth_blockNumber'));

  /** The rows the owner named `name` holds: the transactions of its logs, in chain order. */
  async function seen(name: string): Promise<Hex[]> {
    const { rows } = await s.dbh.query(
      'select tx_hash from follower_test_seen where follower = $1 order by block_number, log_index',
      [name],
    );
    return rows.map((row) => row.tx_hash as Hex);
  }

  /** A follower of the token's Transfers whose owner records what it is told. */
  function owner(name: string, overrides: Partial<Follower> = {}) {
    const calls = { logs: [] as FollowedLog[][], reorgs: [] as bigint[], confirmed: [] as bigint[] };
    const follower: Follower = {
      name,
      network: { code: 'test-chain', chainId: s.chain.chainId, rpcUrl: s.chain.rpcUrl },
      confirmations: 1,
      filter: { address: s.token, topics: [TRANSFER_TOPIC] },
      startBlock: s.startBlock,
      onLogs: async (tx, logs) => {
        for (const log of logs) {
          await tx.execute(
            sql`insert into follower_test_seen values (${name}, ${Number(log.blockNumber)}, ${log.txHash}, ${log.logIndex})`,
          );
        }
        calls.logs.push(logs);
      },
      onReorg: async (tx, fromBlock) => {
        await tx.execute(
          sql`delete from follower_test_seen where follower = ${name} and block_number >= ${Number(fromBlock)}`,
        );
        calls.reorgs.push(fromBlock);
      },
      onConfirmed: async (_tx, upTo) => {
        calls.confirmed.push(upTo);
      },
      ...overrides,
    };
    return { follower, calls, seen: () => seen(name) };
  }

  return Object.assign(s, { transfer, transferTx, mine, head, rpc, owner, seen });
}

/**
 * A JSON-RPC proxy in front of a node that counts the calls by method: what a step costs, seen
 * from the node's side.
 */
export async function countingProxy(target: string) {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { method: string } | { method: string }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) calls.push(call.method);
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** The calls since the last take, and forgets them. */
    take: () => calls.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
