import type { Hex } from 'viem';
import type { Database } from '@connect/db';

/** JSON-RPC calls to one network's node. */
export type RpcCaller = <T>(method: string, params: unknown[]) => Promise<T>;

/** Fees of a transaction: EIP-1559 where the chain has a base fee, else a legacy gas price. */
export type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint };

/** What a platform transaction does: everything but its chain, sender, nonce and signature. */
export type TxFields = {
  to?: Hex | undefined;
  data?: Hex | undefined;
  value?: bigint | undefined;
  gas: bigint;
  fees: Fees;
};

/** A network the platform sends on. */
export type SenderNetwork = { id: string; code: string; chainId: number; rpcUrl: string };

/** A signed transaction and what it is for (`reference`, e.g. `token:<id>`). */
export type SignedPlatformTx = {
  networkId: string;
  from: Hex;
  nonce: bigint;
  hash: Hex;
  raw: Hex;
  reference: string;
};

/** A reference's transaction changed hash: a fee bump's replacement, or the original mined after all. */
export type TxMoved = {
  reference: string;
  networkId: string;
  /** The transaction that now stands for the reference. */
  hash: Hex;
  /** The hashes it may have stood under before (same sender and nonce). */
  was: Hex[];
};

/**
 * Whoever a reference belongs to (`token` for `token:<id>`), registered with PlatformSender.own:
 * the sender tells it what became of its transactions and knows nothing else of it.
 */
export type ReferenceOwner = {
  /**
   * Point the reference at `change.hash`. `db` is the transaction that marks the old row
   * REPLACED: write with it, so both changes happen together.
   */
  moved(change: TxMoved, db: Database): Promise<void>;
  /** The reference's transaction can never be mined now (its nonce went to another transaction). */
  lost(reference: string, reason: string): Promise<void>;
};

/** A transaction receipt, as much of it as the platform reads. */
export type Receipt = {
  transactionHash: Hex;
  status: Hex;
  contractAddress: Hex | null;
  blockNumber: Hex;
  from: Hex;
  to: Hex | null;
};
