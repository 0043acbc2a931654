import type { Hex } from 'viem';
import type { PlatformTxStatus } from '@connect/db';
import type { PlatformSender, RpcCaller } from '../../adapters/chains/sender/index.ts';
import { deploymentData } from './deployment-data.ts';
import type { TokenRow } from './repository.ts';
import type { DeployResult } from './settlement.ts';

type ChainTx = { from: Hex; to: Hex | null; input: Hex; blockNumber: Hex | null };

/** What the chain says of a deployment transaction, once its receipt is in (or the wait is over). */
export type Verdict =
  | { outcome: 'waiting' }
  | { outcome: 'failed'; reason: string; sent?: { txHash: Hex; status: PlatformTxStatus } }
  | { outcome: 'deployed'; result: DeployResult };

/**
 * Waits for a deployment's receipt and checks it: a successful contract creation and, for a
 * wallet's transaction, exactly the prepared data with code at the new address. 'waiting' when
 * there is no receipt within `maxWaitMs`, unless the network has not seen the transaction for
 * `giveUpAfterMs` since the token last changed (then it failed, dropped). The platform's own
 * transaction is followed through the sender: a fee bump's replacement counts as it (and the
 * verdict names the hash that was mined).
 */
export async function followReceipt(
  sender: PlatformSender,
  network: { id: string; rpcUrl: string },
  call: RpcCaller,
  token: TokenRow,
  sentHash: Hex,
  wait: { maxWaitMs: number; giveUpAfterMs: number; signal: AbortSignal },
): Promise<Verdict> {
  const found = await sender.waitForReceipt(network, sentHash, {
    maxWaitMs: wait.maxWaitMs,
    signal: wait.signal,
    call,
    stored: token.deploymentType === 'QUANT',
  });
  // The moment the server learned the deployment is on the chain: the token's deployedAt.
  const confirmedAt = new Date();
  if (!found.receipt) {
    if (wait.signal.aborted) return { outcome: 'waiting' };
    const seen = await Promise.all(
      found.hashes.map((hash) => call<ChainTx | null>('eth_getTransactionByHash', [hash])),
    );
    if (!seen.some(Boolean) && Date.now() - token.updatedAt.getTime() > wait.giveUpAfterMs) {
      return failed('The deployment transaction was not found on the network.', {
        txHash: sentHash,
        status: 'DROPPED',
      });
    }
    return { outcome: 'waiting' };
  }
  const { receipt, hash: txHash } = found;
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
