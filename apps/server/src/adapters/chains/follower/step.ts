import type { Database } from '@connect/db';
import { FollowerChain } from './chain.ts';
import { CursorMovedError, FollowerRepository, type CursorKey } from './repository.ts';
import type { ChainView, FollowedLog, Follower, KnownBlock, StepOptions, StepResult } from './types.ts';

/*
 * One step of a chain follower. What it costs, per step, whatever the owner watches:
 *
 *   eth_getBlockByNumber(latest)        the head (number and hash)
 *   eth_getBlockByNumber(cursor)        the reorg check; skipped when the cursor is the head
 *   eth_getBlockByNumber(to)            the range end's hash, before the logs; skipped when to is the head
 *   eth_getLogs(cursor+1 .. to)         one call: the follower's fixed filter (a contract and its topics)
 *   eth_getBlockByNumber(to)            the range end's hash again, after the logs
 *
 * so at most five calls, four when following the head, and one more on a follower's very first
 * step (the hash of the block before its start, for its reorg window). The filter names a contract
 * and an event, never the owner's addresses: the node answers every Transfer of the token in the
 * range and the owner matches the recipients against its own table inside onLogs (an indexed
 * lookup), so neither the calls nor their size grow with the number of deposit addresses — only
 * with the token's traffic in the range, which maxBlocks bounds. (A topic list of N addresses
 * would grow each request with N, and providers cap it.) A reorg walks back through the window,
 * one header per remembered block, and is rare.
 *
 * Why the range end's hash twice: eth_getLogs answers logs with their blockHash, but the follower
 * records one hash per step, the range end's. A reorg replacing any block up to `to` replaces
 * `to` too (each block names its parent), so the same hash before and after eth_getLogs means the
 * logs were read from the chain that ends in the recorded block; a different one means the chain
 * moved under the step, which then delivers nothing and goes again at once.
 */

/**
 * The reorg window: hashes of the blocks the follower stopped at within this many blocks of its
 * cursor (plus the newest one below them). A reorg deeper than the window is logged as an error
 * and rewinds to the window's start; the follower cannot tell what changed before it, so its
 * confirmed-block-lost hooks are told (`beyondWindow`) and check their own records against the
 * chain (QNT payments: the block hashes of its confirmed transfers, and a staff alert).
 */
export function windowSize(confirmations: number): number {
  return Math.max(confirmations + 10, 64);
}

const DEFAULT_RPC_TIMEOUT_MS = 10_000;

type StepLog = { error(object: object, message: string): void; warn(object: object, message: string): void };

/** One step: reorg check, logs of (cursor, min(head, cursor+maxBlocks)], cursor moved, onConfirmed. */
export async function followStep(
  db: Database,
  follower: Follower,
  options: StepOptions & { log?: StepLog },
): Promise<StepResult> {
  const chain = new FollowerChain(follower, {
    timeoutMs: options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const repo = new FollowerRepository(db);
  const key: CursorKey = { follower: follower.name, chainId: follower.network.chainId };
  const latest = await chain.head();
  const head = latest.number;

  const position = await repo.position(key);
  let cursor = position?.cursor ?? null;
  let reorgedFrom: bigint | null = null;
  if (cursor) {
    // The cursor's hash is the check of every block up to it (each block names its parent): a
    // replaced block, or a chain now shorter than the cursor (a local chain restarted from an
    // older state), changes or removes it.
    const now = cursor.number === head ? latest : await chain.header(cursor.number);
    if (now?.hash !== cursor.hash) {
      const { ancestor, beyondWindow } = await findAncestor(repo, chain, key, follower, cursor, options.log);
      const was = cursor;
      const fromBlock = ancestor.number + 1n;
      reorgedFrom = fromBlock;
      const confirmed = position?.confirmed ?? null;
      const loss =
        // Past the window the fork may be below fromBlock: every confirmed block is in doubt.
        confirmed !== null && (fromBlock <= confirmed || beyondWindow)
          ? {
              follower: follower.name,
              network: follower.network,
              fromBlock,
              confirmedTo: confirmed,
              cursorWas: was.number,
              beyondWindow,
            }
          : null;
      const view: ChainView = { hashAt: async (block) => (await chain.header(block))?.hash ?? null };
      await repo.transaction(async (r, tx) => {
        await r.rewind(key, was, ancestor);
        await follower.onReorg(tx, fromBlock);
        // Confirmed blocks lost: every hook, in the rewind's transaction (once: the rewind is a
        // compare-and-set of the cursor), before the follower reads the new chain from fromBlock.
        if (loss) for (const hook of options.onConfirmedBlockLost ?? []) await hook(tx, loss, view);
      });
      if (loss) {
        options.log?.error(
          { follower: follower.name, chainId: key.chainId, from: String(fromBlock), confirmedTo: String(confirmed) },
          'chain follower: blocks it had confirmed were replaced (from the newest block it still finds); the confirmed-block-lost hooks ran',
        );
      }
      cursor = ancestor;
    }
  }

  const from = cursor ? cursor.number : (follower.startBlock ?? head) - 1n;
  const end = min(head, from + BigInt(Math.max(1, options.maxBlocks)));
  let to = from;
  if (end > from) {
    const moved = await readRange(chain, repo, key, follower, { cursor, from, to: end, latest });
    if (moved) {
      to = end;
      cursor = moved;
    }
  }

  // The cursor exists from the first step that read something; before that nothing was delivered.
  // Never past the cursor: a block not read yet is not confirmed to the owner (nor recorded so).
  const at = cursor;
  const upTo = at ? min(head - BigInt(follower.confirmations) + 1n, at.number) : -1n;
  if (at && upTo >= 0n) {
    await repo.transaction(async (r, tx) => {
      await follower.onConfirmed(tx, upTo);
      await r.confirmedUpTo(key, at, upTo);
    });
  }
  return { from, to, head, reorgedFrom };
}

/**
 * Reads the logs of (from, to] and moves the cursor to `to` with them, in one transaction.
 * Answers the new cursor, or null when the chain moved under the read (nothing written).
 */
async function readRange(
  chain: FollowerChain,
  repo: FollowerRepository,
  key: CursorKey,
  follower: Follower,
  range: { cursor: KnownBlock | null; from: bigint; to: bigint; latest: KnownBlock },
): Promise<KnownBlock | null> {
  const { cursor, from, to, latest } = range;
  // Headers first, then the logs, then the range end again (see the top of this file).
  const before = to === latest.number ? latest : await chain.header(to);
  // The first step also records the block before its start, so a reorg at once has an ancestor.
  const anchor = !cursor && from >= 0n ? await chain.header(from) : null;
  const logs = await chain.logs(from + 1n, to);
  const after = await chain.header(to);
  if (!before || !after || before.hash !== after.hash || after.number !== to) return null;
  const delivered: FollowedLog[] = [];
  for (const { removed, ...log } of logs) {
    // A node answering from another fork, or a log outside the range: read the range again.
    if (removed || log.blockNumber <= from || log.blockNumber > to) return null;
    if (log.blockNumber === to && log.blockHash !== after.hash) return null;
    delivered.push(log);
  }
  const keepFrom = to - BigInt(windowSize(follower.confirmations)) + 1n;
  await repo.transaction(async (r, tx) => {
    await r.advance(key, cursor, after, keepFrom, anchor ? [anchor] : []);
    if (delivered.length) await follower.onLogs(tx, delivered);
  });
  return after;
}

/**
 * The newest remembered block whose hash the chain still has (every block before it is then
 * unchanged too). Past the window: the block before its oldest, as the chain has it now, and
 * `beyondWindow` (the fork may be anywhere before it).
 */
async function findAncestor(
  repo: FollowerRepository,
  chain: FollowerChain,
  key: CursorKey,
  follower: Follower,
  cursor: KnownBlock,
  log: StepLog | undefined,
): Promise<{ ancestor: KnownBlock; beyondWindow: boolean }> {
  const remembered = await repo.windowBelow(key, cursor.number);
  for (const known of remembered) {
    const now = await chain.header(known.number);
    // (Whether confirmed blocks were among the replaced ones is the step's question: its hooks.)
    if (now?.hash === known.hash) return { ancestor: known, beyondWindow: false };
  }
  const oldest = remembered.at(-1) ?? cursor;
  const start = oldest.number > 0n ? oldest.number - 1n : 0n;
  log?.error(
    {
      follower: follower.name,
      chainId: key.chainId,
      rewoundTo: String(start),
      window: windowSize(follower.confirmations),
    },
    'chain follower: a reorg deeper than the window; rewound to its start (the confirmed-block-lost hooks check what their owners recorded before it)',
  );
  const now = await chain.header(start);
  if (!now) throw new Error(`${follower.network.code}: block ${start} is missing while rewinding ${follower.name}`);
  return { ancestor: now, beyondWindow: true };
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Places the follower's cursor at the chain's head when it has none yet, so that everything from
 * the next block on is delivered. An owner calls it before it hands out anything the follower must
 * see (the first deposit address): without it the cursor is placed by the first step, and what
 * happened between the owner's start and that step would never be delivered. Answers false when
 * the cursor existed already (nothing changes).
 */
export async function startHere(db: Database, follower: Follower, options: { rpcTimeoutMs?: number } = {}) {
  const repo = new FollowerRepository(db);
  const key: CursorKey = { follower: follower.name, chainId: follower.network.chainId };
  if (await repo.cursor(key)) return false;
  const chain = new FollowerChain(follower, { timeoutMs: options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS });
  const head = await chain.head();
  try {
    await repo.advance(key, null, head, head.number);
    return true;
  } catch (error) {
    if (error instanceof CursorMovedError) return false; // another node (or the first step) was first
    throw error;
  }
}
