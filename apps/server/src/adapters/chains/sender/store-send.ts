import type { Hex } from 'viem';
import type { NewPlatformTx } from '../../../repositories/platform.ts';
import { RpcError } from '../rpc.ts';
import type { RpcCaller, SignedPlatformTx } from './types.ts';

/*
 * Stored first, then sent. Every transaction the platform signs is written to
 * `platform_transactions` (sender, nonce, hash, the raw bytes, what it is for) before it leaves
 * this process: whatever happens next it is never signed twice with another nonce, and after a
 * crash the bytes a chain lost can be sent again (recovery.ts) — same sender and nonce, so the
 * same hash and the same contract address. A caller may store the row inside a statement of its
 * own (the token's insert folds it in, so a deployment's critical path pays no extra round trip);
 * `platformTxRow` gives the row either way.
 */

export function platformTxRow(tx: SignedPlatformTx): NewPlatformTx {
  return {
    networkId: tx.networkId,
    fromAddress: tx.from,
    nonce: Number(tx.nonce),
    txHash: tx.hash,
    rawTx: tx.raw,
    reference: tx.reference,
  };
}

const ALREADY_KNOWN = /already known|known transaction/i;

export type StoreThenSendSteps<T extends SignedPlatformTx> = {
  /** Stores the transaction (with whatever the caller claims with it); false: refused, nothing is sent. */
  store: (tx: T) => Promise<boolean>;
  /** Forgets a stored transaction that is not going to be sent. */
  release: (tx: T) => Promise<void>;
  /**
   * The last word before sending: answers the transaction to send — this one, or another signed
   * in its place with the same nonce (then this one is released and that one stored) — or throws,
   * and nothing is sent.
   */
  confirm?: ((tx: T) => Promise<T>) | undefined;
};

export type StoreThenSendResult<T> =
  /** The caller's store refused it: nothing was sent. */
  | { outcome: 'refused' }
  /** `confirm` threw: released, nothing was sent. */
  | { outcome: 'not-sent'; error: unknown }
  /** The node took it ('accepted'), or may have (a timeout or an HTTP error: 'ambiguous'; it stays stored). */
  | { outcome: 'accepted' | 'ambiguous'; tx: T };

/**
 * Stores, then sends. A node that refuses the transaction (a JSON-RPC error) gets it released and
 * the RpcError rethrown; "already known" counts as accepted.
 */
export async function storeThenSend<T extends SignedPlatformTx>(
  call: RpcCaller,
  first: T,
  steps: StoreThenSendSteps<T>,
): Promise<StoreThenSendResult<T>> {
  if (!(await steps.store(first))) return { outcome: 'refused' };
  let tx = first;
  if (steps.confirm) {
    try {
      tx = await steps.confirm(first);
    } catch (error) {
      await steps.release(first);
      return { outcome: 'not-sent', error };
    }
    if (tx !== first) {
      await steps.release(first);
      if (!(await steps.store(tx))) return { outcome: 'refused' };
    }
  }
  return { outcome: await sendRaw(call, tx.raw, () => steps.release(tx)), tx };
}

/**
 * eth_sendRawTransaction of stored bytes. A refusal calls `release` (when given) and throws the
 * RpcError; a timeout or HTTP error is 'ambiguous' (the node may have taken it).
 */
export async function sendRaw(
  call: RpcCaller,
  raw: Hex,
  release?: () => Promise<void>,
): Promise<'accepted' | 'ambiguous'> {
  try {
    await call('eth_sendRawTransaction', [raw]);
    return 'accepted';
  } catch (err) {
    if (err instanceof RpcError && err.kind === 'RPC' && ALREADY_KNOWN.test(err.message)) return 'accepted';
    if (err instanceof RpcError && (err.kind === 'TIMEOUT' || err.kind === 'HTTP')) return 'ambiguous';
    await release?.();
    throw err;
  }
}
