import type { FastifyBaseLogger } from 'fastify';
import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import type { PlatformTxRow } from '../../../repositories/platform.ts';
import { RpcError } from '../rpc.ts';
import type { SenderTxRepository } from './repository.ts';
import { sendRaw } from './store-send.ts';
import type { RpcCaller } from './types.ts';

/**
 * After a crash, a chain may have lost transactions the platform signed and stored
 * (store-send.ts): a local anvil chain comes back from its last saved state (at most a second
 * old), and a node may have lost a transaction that was stored but never reached it. At start-up,
 * per sender and in nonce order, every stored transaction the chain no longer knows
 * (eth_getTransactionByHash null) is sent again: the same sender and nonce give the same hash and
 * the same contract address, so what the database says becomes true again. One whose nonce the
 * chain has already used cannot be: when the chain knows another stored transaction of that nonce
 * (a fee bump's replacement, or the original it replaced) it is REPLACED and its owner pointed at
 * that one; else it is FAILED, and its owner settles what depended on it (`onConflict`).
 *
 * Which stored transactions are checked: on a local chain every one (a mined transaction can be
 * lost with the state), from the highest nonce down to the first the chain still knows — the chain
 * was restored from an earlier state of itself, so it knows every earlier one too; on other
 * networks only those not seen mined yet (status SIGNED).
 */

const NONCE_USED = /nonce too low|already been used|invalid nonce/i;
/** How long the recovery waits for its resent transactions to be mined before going on. */
const RECEIPT_WAIT_MS = 10_000;

export type RecoveryNetwork = { id: string; code: string; rpcUrl: string; isLocal: boolean };

export type RecoveryResult = {
  /** Stored transactions sent again. */
  resent: PlatformTxRow[];
  /** Stored transactions whose nonce another transaction took: FAILED, their owner told. */
  conflicts: PlatformTxRow[];
};

export type RecoveryOptions = {
  repo: SenderTxRepository;
  network: RecoveryNetwork;
  call: RpcCaller;
  log: FastifyBaseLogger;
  /** Makes sure a sender can pay before its transactions are sent again (the local faucet). */
  fund?: ((from: Hex) => Promise<void>) | undefined;
  /** The sender's nonces on this network are read from the chain again. */
  resync: (from: Hex) => void;
  /** A transaction that can never be mined now (its nonce was used by another): settle its reference. */
  onConflict: (row: PlatformTxRow, reason: string) => Promise<void>;
  /** `row` lost, but the chain knows `known`, stored with the same sender and nonce: REPLACED by it. */
  onReplaced: (row: PlatformTxRow, known: PlatformTxRow) => Promise<void>;
};

export async function recoverPlatformTransactions(options: RecoveryOptions): Promise<RecoveryResult> {
  const { repo, network } = options;
  const statuses: PlatformTxStatus[] = network.isLocal ? ['SIGNED', 'MINED'] : ['SIGNED'];
  const rows = await repo.byStatus(network.id, statuses);
  const bySender = new Map<string, PlatformTxRow[]>();
  for (const row of rows) {
    const key = row.fromAddress.toLowerCase();
    bySender.set(key, [...(bySender.get(key) ?? []), row]);
  }
  const result: RecoveryResult = { resent: [], conflicts: [] };
  for (const senderRows of bySender.values()) {
    const sender = await recoverSender(options, senderRows);
    result.resent.push(...sender.resent);
    result.conflicts.push(...sender.conflicts);
  }
  if (result.resent.length || result.conflicts.length) {
    options.log.warn(
      { network: network.code, resent: result.resent.length, failed: result.conflicts.length },
      'sent again the platform transactions the chain had lost',
    );
  }
  return result;
}

/** One sender's stored transactions (in nonce order). */
async function recoverSender(options: RecoveryOptions, rows: PlatformTxRow[]): Promise<RecoveryResult> {
  const { repo, network, call } = options;
  const knows = async (row: PlatformTxRow) => (await call<unknown>('eth_getTransactionByHash', [row.txHash])) !== null;
  const lost: PlatformTxRow[] = [];
  // Highest nonce first; on a local chain stop at the first the chain knows (see the top).
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (await knows(row)) {
      if (network.isLocal) break;
      continue;
    }
    lost.push(row);
  }
  // In nonce order; of one nonce, the newest (a fee bump's replacement) is sent first.
  lost.sort((a, b) => a.nonce - b.nonce || b.createdAt.getTime() - a.createdAt.getTime());
  const result: RecoveryResult = { resent: [], conflicts: [] };
  if (!lost.length) return result;
  const from = rows[0]!.fromAddress as Hex;
  await options.fund?.(from);
  let next = BigInt(await call<Hex>('eth_getTransactionCount', [from, 'pending']));
  // Its nonce was used: by another stored transaction of that nonce the chain knows, or by a stranger.
  const nonceTaken = async (row: PlatformTxRow) => {
    if (await knows(row)) return; // another node has just sent it again
    for (const sibling of await repo.sameNonce(row.networkId, row.fromAddress, row.nonce)) {
      if (sibling.txHash !== row.txHash && (await knows(sibling))) {
        await options.onReplaced(row, sibling);
        return;
      }
    }
    await repo.setStatus(row.networkId, row.txHash, 'FAILED');
    await options.onConflict(row, `Its nonce ${row.nonce} was used by another transaction of ${from}.`);
    result.conflicts.push(row);
  };
  for (const row of lost) {
    if (BigInt(row.nonce) < next) {
      await nonceTaken(row);
      continue;
    }
    try {
      await sendRaw(call, row.rawTx as Hex);
    } catch (err) {
      if (err instanceof RpcError && err.kind === 'RPC' && NONCE_USED.test(err.message)) {
        await nonceTaken(row);
        continue;
      }
      // Unreachable, out of funds, …: left stored for the next start.
      options.log.error({ err, network: network.code, txHash: row.txHash }, 'could not send a lost transaction again');
      break;
    }
    next = BigInt(row.nonce) + 1n;
    result.resent.push(row);
  }
  options.resync(from);
  await waitForReceipts(call, result.resent);
  return result;
}

async function waitForReceipts(call: RpcCaller, rows: PlatformTxRow[]): Promise<void> {
  const deadline = Date.now() + RECEIPT_WAIT_MS;
  let waiting = rows;
  while (waiting.length && Date.now() < deadline) {
    const mined = await Promise.all(
      waiting.map(async (row) => (await call<unknown>('eth_getTransactionReceipt', [row.txHash])) !== null),
    );
    waiting = waiting.filter((_, i) => !mined[i]);
    if (waiting.length) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
