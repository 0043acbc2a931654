import type { Hex } from 'viem';
import type { Database } from '@connect/db';

/** One log of the follower's filter, from a block the follower has recorded the hash of. */
export type FollowedLog = {
  blockNumber: bigint;
  blockHash: Hex;
  txHash: Hex;
  logIndex: number;
  address: Hex;
  topics: Hex[];
  data: Hex;
};

/**
 * What an owner (QNT payments, the bridges relayer, the explorer) follows on one chain. The
 * follower calls it inside its own transactions: the owner writes with `tx` only, so its writes
 * and the cursor's move commit together or not at all (a crash between steps repeats nothing and
 * loses nothing).
 */
export type Follower = {
  /** Stable name, the cursor's key with the chain id (e.g. 'qnt-deposits'). Never renamed. */
  name: string;
  network: { code: string; chainId: number; rpcUrl: string };
  /** A block counts once it has this many confirmations (the head itself has 1). */
  confirmations: number;
  /** eth_getLogs filter without the block range: one contract and its topics (never a list that grows with what the owner watches). */
  filter: { address: Hex; topics: (Hex | Hex[] | null)[] };
  /**
   * Where to start when there is no cursor yet: the first block whose logs are delivered;
   * default: the head at the first step.
   */
  startBlock?: bigint;
  /** New logs of blocks (cursor, to], in order, in the transaction that moves the cursor to `to`. */
  onLogs(tx: Database, logs: FollowedLog[]): Promise<void>;
  /** Blocks from `fromBlock` up were replaced: forget what onLogs saw there; the follower re-reads them. Same transaction as the cursor's rewind. */
  onReorg(tx: Database, fromBlock: bigint): Promise<void>;
  /**
   * Blocks up to `upTo` now have their confirmations (upTo = head - confirmations + 1, at most the
   * cursor: never a block the follower has not read). Called after every step, in its own
   * transaction (may repeat the same upTo: the owner must be idempotent).
   */
  onConfirmed(tx: Database, upTo: bigint): Promise<void>;
};

/**
 * Blocks a follower had told its owner were confirmed may be gone from the chain (a reorg deeper
 * than the confirmations, or a local chain restarted from an older state): from `fromBlock` (the
 * block after the newest block of its window the chain still has — the true fork point when the
 * follower stepped block by block, possibly older after a catch-up step of many blocks) up to
 * `confirmedTo`; the follower had read up to `cursorWas`. It reads the chain again from
 * `fromBlock` after its hooks ran, so an owner compares what it had with what it reads again
 * (QNT payments: by transaction, once the new chain is confirmed up to `cursorWas`).
 */
export type ConfirmedBlockLoss = {
  /** The follower whose cursor saw it (its owner's hook acts on its own follower's losses only). */
  follower: string;
  network: Follower['network'];
  fromBlock: bigint;
  confirmedTo: bigint;
  cursorWas: bigint;
  /**
   * The fork is older than the follower's window: none of the blocks it remembers is on the chain
   * any more, so `fromBlock` (the window's start) is only where it reads again, not where the
   * chain changed. An owner checks what it recorded below `fromBlock` against the chain itself
   * (`ChainView.hashAt`, from its newest record down to the first block the chain still has) and
   * alerts staff.
   */
  beyondWindow: boolean;
};

/** What a hook may ask the chain while it runs (the follower's RPC, its timeout and signal). */
export type ChainView = {
  /** The hash the chain has now at `block`, or null when it has no such block. */
  hashAt(block: bigint): Promise<Hex | null>;
};

/**
 * A hook run when confirmed blocks are lost (`deps.followers.onConfirmedBlockLost(hook)`), in the
 * transaction that rewinds the follower's cursor: its writes and the rewind commit together, and
 * the rewind is a compare-and-set of the cursor, so a loss is handled exactly once across restarts
 * and nodes. Write with `tx` only.
 */
export type ConfirmedBlockLostHook = (tx: Database, loss: ConfirmedBlockLoss, chain: ChainView) => Promise<void>;

/** What one step did: logs of blocks (from, to] delivered; `reorgedFrom` when blocks were replaced first. */
export type StepResult = { from: bigint; to: bigint; head: bigint; reorgedFrom: bigint | null };

export type StepOptions = {
  /** The most blocks one step reads (one eth_getLogs); config.follower.maxBlocks. */
  maxBlocks: number;
  /** Each RPC call's limit; default 10 s. */
  rpcTimeoutMs?: number;
  /** Ends the step's RPC calls at once (the app is closing). */
  signal?: AbortSignal;
  /** Run when blocks the follower had confirmed are lost (deps.followers.confirmedBlockLostHooks()). */
  onConfirmedBlockLost?: readonly ConfirmedBlockLostHook[];
};

/** A block the follower knows the hash of (its cursor, its reorg window). */
export type KnownBlock = { number: bigint; hash: Hex };
