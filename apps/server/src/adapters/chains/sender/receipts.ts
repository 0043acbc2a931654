import type { Hex } from 'viem';
import { RpcError } from '../rpc.ts';
import type { Receipt, RpcCaller } from './types.ts';

/**
 * The first pauses between receipt polls. A local chain mines a transaction as it arrives, but may
 * answer the send just before the block is sealed; a poll that just missed it should not cost a
 * whole 15 ms pause. On a public chain these are two extra calls per transaction.
 */
const QUICK_PAUSES_MS = [2, 5];

/** The hashes one transaction may be mined under (it, and replacements with its sender and nonce). */
export type Candidates = (elapsedMs: number) => Hex[] | Promise<Hex[]>;

/** A receipt found (`hash`: the candidate it belongs to), or none within the wait (`hashes`: those tried). */
export type ReceiptWait = { hash: Hex; receipt: Receipt } | { receipt: null; hashes: Hex[] };

/**
 * Polls for the receipt of whichever candidate is mined: quickly at first (a local chain mines at
 * once), then less often. Ends with none after `maxWaitMs` or when `signal` aborts. An unreachable
 * or slow node is asked again; a JSON-RPC error or a malformed answer is thrown.
 */
export async function pollReceipt(
  call: RpcCaller,
  candidates: Candidates,
  wait: { maxWaitMs: number; signal: AbortSignal },
): Promise<ReceiptWait> {
  const started = Date.now();
  let hashes: Hex[] = [];
  for (let poll = 0; !wait.signal.aborted; poll++) {
    hashes = await candidates(Date.now() - started);
    let found: ReceiptWait | null = null;
    try {
      const receipts = await Promise.all(
        hashes.map((hash) => call<Receipt | null>('eth_getTransactionReceipt', [hash])),
      );
      const i = receipts.findIndex(Boolean);
      if (i >= 0) found = { hash: hashes[i]!, receipt: receipts[i]! };
    } catch (err) {
      if (wait.signal.aborted) break;
      if (!(err instanceof RpcError) || err.kind === 'RPC' || err.kind === 'INVALID_RESPONSE') throw err;
      // Unreachable or slow: keep trying within this wait.
    }
    if (found) return found;
    const elapsed = Date.now() - started;
    if (elapsed >= wait.maxWaitMs) break;
    const pause = QUICK_PAUSES_MS[poll] ?? (elapsed < 2_000 ? 15 : elapsed < 15_000 ? 200 : 1_000);
    await sleep(pause, wait.signal);
  }
  return { receipt: null, hashes };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
