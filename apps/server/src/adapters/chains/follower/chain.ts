import type { Hex } from 'viem';
import { rpcCall, RpcError } from '../rpc.ts';
import type { FollowedLog, Follower, KnownBlock } from './types.ts';

/**
 * The three JSON-RPC reads the follower makes, over one network: block headers, and the logs of
 * the follower's fixed filter over a block range. Answers are checked here, so the step deals in
 * bigints and lower-case hashes only.
 */
export class FollowerChain {
  constructor(
    private readonly follower: Follower,
    private readonly options: { timeoutMs: number; signal?: AbortSignal },
  ) {}

  private call<T>(method: string, params: unknown[]): Promise<T> {
    return rpcCall<T>(this.follower.network.rpcUrl, method, params, {
      timeoutMs: this.options.timeoutMs,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
    });
  }

  /** The head's number and hash. */
  async head(): Promise<KnownBlock> {
    const head = await this.header('latest');
    if (!head) throw new RpcError('INVALID_RESPONSE', `${this.follower.network.code}: no latest block`);
    return head;
  }

  /** A block's number and hash; null when the chain has no such block (it is shorter now). */
  async header(tag: bigint | 'latest'): Promise<KnownBlock | null> {
    const block = await this.call<{ number?: unknown; hash?: unknown } | null>('eth_getBlockByNumber', [
      typeof tag === 'bigint' ? toHex(tag) : tag,
      false,
    ]);
    if (block === null) return null;
    return { number: quantity(block.number, 'block number'), hash: hash(block.hash, 'block hash') };
  }

  /** The filter's logs of blocks [fromBlock, toBlock], ordered by block and index. */
  async logs(fromBlock: bigint, toBlock: bigint): Promise<(FollowedLog & { removed: boolean })[]> {
    const { address, topics } = this.follower.filter;
    const raw = await this.call<unknown>('eth_getLogs', [
      { fromBlock: toHex(fromBlock), toBlock: toHex(toBlock), address, topics },
    ]);
    if (!Array.isArray(raw)) throw new RpcError('INVALID_RESPONSE', 'eth_getLogs did not answer a list');
    return raw
      .map((entry: Record<string, unknown>) => ({
        blockNumber: quantity(entry.blockNumber, 'log blockNumber'),
        blockHash: hash(entry.blockHash, 'log blockHash'),
        txHash: hash(entry.transactionHash, 'log transactionHash'),
        logIndex: Number(quantity(entry.logIndex, 'log logIndex')),
        address: data(entry.address, 'log address').toLowerCase() as Hex,
        topics: Array.isArray(entry.topics) ? entry.topics.map((topic) => hash(topic, 'log topic')) : [],
        data: data(entry.data, 'log data'),
        removed: entry.removed === true,
      }))
      .sort((a, b) =>
        a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
      );
  }
}

export const toHex = (value: bigint): Hex => `0x${value.toString(16)}`;

function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw new RpcError('INVALID_RESPONSE', `${what} is not a hex quantity`);
  }
  return BigInt(value);
}

function hash(value: unknown, what: string): Hex {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new RpcError('INVALID_RESPONSE', `${what} is not a 32-byte hash`);
  }
  return value.toLowerCase() as Hex;
}

function data(value: unknown, what: string): Hex {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) {
    throw new RpcError('INVALID_RESPONSE', `${what} is not hex data`);
  }
  return value as Hex;
}
