import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import type { RpcCaller } from '../../adapters/chains/platform-sender.ts';
import { RpcError } from '../../adapters/chains/rpc.ts';
import { deploymentData } from './deployment-data.ts';
import type { TokenRow } from './repository.ts';
import type { DeployResult } from './settlement.ts';

type Receipt = {
  status: Hex;
  contractAddress: Hex | null;
  blockNumber: Hex;
  from: Hex;
  to: Hex | null;
};
type ChainTx = { from: Hex; to: Hex | null; input: Hex; blockNumber: Hex | null };

/**
 * The first pauses between receipt polls. A local chain mines a transaction as it arrives, but may
 * answer the send just before the block is sealed; a poll that just missed it should not cost a
 * whole 15 ms pause. On a public chain these are two extra calls per deployment.
 */
const RECEIPT_QUICK_PAUSES_MS = [2, 5];

/** What the chain says of a deployment transaction, once its receipt is in (or the wait is over). */
export type Verdict =
  | { outcome: 'waiting' }
  | { outcome: 'failed'; reason: string; sent?: { txHash: Hex; status: PlatformTxStatus } }
  | { outcome: 'deployed'; result: DeployResult };

/**
 * Waits for a deployment's receipt and checks it: a successful contract creation and, for a
 * wallet's transaction, exactly the prepared data with code at the new address. 'waiting' when
 * there is no receipt within `maxWaitMs`, unless the network has not seen the transaction for
 * `giveUpAfterMs` since the token last changed (then it failed, dropped).
 */
export async function followReceipt(
  call: RpcCaller,
  token: TokenRow,
  txHash: Hex,
  wait: { maxWaitMs: number; giveUpAfterMs: number; signal: AbortSignal },
): Promise<Verdict> {
  const receipt = await waitForReceipt(call, txHash, wait.maxWaitMs, wait.signal);
  // The moment the server learned the deployment is on the chain: the token's deployedAt.
  const confirmedAt = new Date();
  if (!receipt) {
    if (wait.signal.aborted) return { outcome: 'waiting' };
    const tx = await call<ChainTx | null>('eth_getTransactionByHash', [txHash]);
    if (!tx && Date.now() - token.updatedAt.getTime() > wait.giveUpAfterMs) {
      return failed('The deployment transaction was not found on the network.', { txHash, status: 'DROPPED' });
    }
    return { outcome: 'waiting' };
  }
  const block = BigInt(receipt.blockNumber);
  if (receipt.status !== '0x1') {
    return failed(`The deployment transaction failed on the chain (reverted in block ${block}).`, {
      txHash,
      status: 'MINED',
    });
  }
  let from = receipt.from;
  if (token.deploymentType === 'META_MASK') {
    // The wallet's transaction must be a contract creation carrying exactly the prepared data.
    // Runtime code is not compared: the contracts' immutables differ per deployment.
    const tx = await call<ChainTx | null>('eth_getTransactionByHash', [txHash]);
    if (!tx) return { outcome: 'waiting' };
    from = tx.from;
    if (tx.to) return failed('The transaction is not a contract deployment.');
    if (tx.input.toLowerCase() !== deploymentData(token).toLowerCase()) {
      return failed('The transaction did not deploy the prepared contract: its data differs.');
    }
  }
  if (!receipt.contractAddress) return failed('The transaction created no contract.');
  if (token.deploymentType === 'META_MASK') {
    // The platform's own creation succeeded with a contract address; a wallet's is checked.
    const code = await call<Hex>('eth_getCode', [receipt.contractAddress, receipt.blockNumber]);
    if (!code || code === '0x') return failed('No contract code exists at the deployed address.');
  }
  return {
    outcome: 'deployed',
    result: { txHash, contractAddress: receipt.contractAddress, blockNumber: block, from, confirmedAt },
  };
}

const failed = (reason: string, sent?: { txHash: Hex; status: PlatformTxStatus }): Verdict =>
  sent ? { outcome: 'failed', reason, sent } : { outcome: 'failed', reason };

/** Polls for a receipt, quickly at first (a local chain mines at once), then less often. */
async function waitForReceipt(
  call: RpcCaller,
  txHash: Hex,
  maxWaitMs: number,
  signal: AbortSignal,
): Promise<Receipt | null> {
  const started = Date.now();
  for (let poll = 0; !signal.aborted; poll++) {
    let receipt: Receipt | null = null;
    try {
      receipt = await call<Receipt | null>('eth_getTransactionReceipt', [txHash]);
    } catch (err) {
      if (signal.aborted) return null;
      if (!(err instanceof RpcError) || err.kind === 'RPC' || err.kind === 'INVALID_RESPONSE') throw err;
      // Unreachable or slow: keep trying within this attempt.
    }
    if (receipt) return receipt;
    const elapsed = Date.now() - started;
    if (elapsed >= maxWaitMs) return null;
    const pause = RECEIPT_QUICK_PAUSES_MS[poll] ?? (elapsed < 2_000 ? 15 : elapsed < 15_000 ? 200 : 1_000);
    await sleep(pause, signal);
  }
  return null;
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
