import type { FastifyBaseLogger } from 'fastify';
import { parseTransaction, type Hex, type TransactionSerializable } from 'viem';
import type { PlatformTxRow } from '../../../repositories/platform.ts';
import type { TxSigner } from '../signer.ts';
import { bumpFees, marketFees } from './fees.ts';
import type { SenderTxRepository, StuckTx } from './repository.ts';
import { platformTxRow, sendRaw } from './store-send.ts';
import type { Fees, RpcCaller } from './types.ts';

/** A stuck transaction replaced by the same one with higher fees. */
export type Bump = { reference: string; networkId: string; from: Hex; nonce: number; was: Hex; hash: Hex };

export type BumpContext = {
  repo: SenderTxRepository;
  log: FastifyBaseLogger;
  /** The platform's signer of an address, if it holds the key. */
  signerOf: (address: string) => TxSigner | undefined;
  callerAt: (rpcUrl: string) => RpcCaller;
  /** Marks the old row REPLACED and points its reference's owner at the replacement. */
  replaced: (row: PlatformTxRow, hash: Hex) => Promise<void>;
};

/**
 * Replaces the transactions that have waited since before `before` and hold their sender back:
 * the one whose nonce is the sender's next on the chain (those after it wait for it, not for
 * fees). Each is signed again — the same transaction, same nonce — with fees raised (fees.ts),
 * stored with the same reference before it is sent, and, once the node took it, the old row is
 * REPLACED and the reference's owner told.
 */
export async function bumpStuck(ctx: BumpContext, before: Date): Promise<Bump[]> {
  const bySender = new Map<string, StuckTx[]>();
  for (const row of await ctx.repo.waitingSince(before)) {
    const key = `${row.networkId}|${row.fromAddress.toLowerCase()}`;
    bySender.set(key, [...(bySender.get(key) ?? []), row]);
  }
  const bumps: Bump[] = [];
  for (const rows of bySender.values()) {
    const first = rows[0]!;
    try {
      const bump = await bumpSender(ctx, rows);
      if (bump) bumps.push(bump);
    } catch (err) {
      ctx.log.warn({ err, network: first.networkCode, from: first.fromAddress }, 'could not bump a stuck transaction');
    }
  }
  if (bumps.length) ctx.log.warn({ bumped: bumps.length }, 'replaced stuck platform transactions with higher fees');
  return bumps;
}

async function bumpSender(ctx: BumpContext, rows: StuckTx[]): Promise<Bump | undefined> {
  const { repo } = ctx;
  const first = rows[0]!;
  const call = ctx.callerAt(first.rpcUrl);
  const next = BigInt(await call<Hex>('eth_getTransactionCount', [first.fromAddress, 'latest']));
  // Of that nonce, the newest stored (a replacement that itself got stuck is replaced again).
  const row = rows.filter((r) => BigInt(r.nonce) === next).at(-1);
  if (!row) return undefined;
  const signer = ctx.signerOf(row.fromAddress);
  if (!signer) {
    ctx.log.warn(
      { network: row.networkCode, from: row.fromAddress },
      'a stuck transaction of a key the platform does not hold',
    );
    return undefined;
  }
  const { r: _r, s: _s, v: _v, yParity: _y, ...unsigned } = parseTransaction(row.rawTx as Hex);
  const fees = bumpFees(feesOf(unsigned), await marketFees(call));
  if (!fees) {
    ctx.log.info({ network: row.networkCode, txHash: row.txHash }, 'a waiting transaction pays well: not bumped');
    return undefined;
  }
  const signed = await signer.signTransaction({ ...unsigned, ...fees } as TransactionSerializable);
  const replacement = platformTxRow({
    networkId: row.networkId,
    from: row.fromAddress as Hex,
    nonce: BigInt(row.nonce),
    reference: row.reference,
    ...signed,
  });
  // Stored before it is sent, like every transaction the platform signs.
  await repo.insert(replacement);
  try {
    await sendRaw(call, signed.raw, () => repo.remove(row.networkId, signed.hash));
  } catch (err) {
    // Mined meanwhile ("nonce too low"), or refused: the old one stands.
    ctx.log.info({ err, network: row.networkCode, txHash: row.txHash }, 'the replacement was not taken');
    return undefined;
  }
  await ctx.replaced(row, signed.hash);
  return {
    reference: row.reference,
    networkId: row.networkId,
    from: row.fromAddress as Hex,
    nonce: row.nonce,
    was: row.txHash as Hex,
    hash: signed.hash,
  };
}

function feesOf(tx: {
  gasPrice?: bigint | undefined;
  maxFeePerGas?: bigint | undefined;
  maxPriorityFeePerGas?: bigint | undefined;
}): Fees {
  if (tx.maxFeePerGas !== undefined) {
    return { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n };
  }
  return { gasPrice: tx.gasPrice ?? 0n };
}
