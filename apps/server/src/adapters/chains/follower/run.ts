import { setTimeout as sleep } from 'node:timers/promises';
import type { DbHandle } from '@connect/db';
import type { FastifyBaseLogger } from 'fastify';
import { RpcError } from '../rpc.ts';
import { followerKey, markLockHeld } from './registry.ts';
import { CursorMovedError } from './repository.ts';
import { followStep } from './step.ts';
import type { ConfirmedBlockLostHook, Follower } from './types.ts';

export type RunOptions = {
  /** Pause between steps once caught up with the head (config.follower.pollMs). */
  pollMs: number;
  /** The most blocks one step reads (config.follower.maxBlocks). */
  maxBlocks: number;
  /** Stops the loop (the app is closing); the step in flight ends at once. */
  signal?: AbortSignal;
  /** When to stop (epoch milliseconds, like Date.now()); no limit when absent. */
  untilMs?: number;
  rpcTimeoutMs?: number;
  log?: Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;
  /** Run when blocks the follower had confirmed are lost (deps.followers.confirmedBlockLostHooks()). */
  onConfirmedBlockLost?: readonly ConfirmedBlockLostHook[];
};

/**
 * LOCKED: another node (or loop) follows this chain, nothing was done. STOPPED: the signal
 * aborted or untilMs passed. LOCK_LOST: the lock's connection went, so the loop stopped (another
 * node may be following now).
 */
export type RunOutcome = 'LOCKED' | 'STOPPED' | 'LOCK_LOST';

/** The advisory lock's key: one loop per follower and chain, across every node. */
export const lockKey = (follower: Follower) => `chain-follower:${followerKey(follower)}`;

/**
 * Follows one chain while this node holds its lock: a step every pollMs, straight away again while
 * catching up. Failures (the node down, the owner's write refused) are logged and the step is
 * tried again at the next poll; nothing is thrown out of the loop. The lock is released on the way
 * out. A getLogs range the node refuses (too many results, a timeout) halves the range until
 * steps pass again, then it grows back to maxBlocks.
 *
 * Which node follows a chain is for the operator to see (issue 31): the lock taken and released
 * are logged at info, a lock lost (its connection went: another node may follow now) at warn, the
 * moment it is lost, each with the follower's name and chain id; while the lock is held,
 * FollowerRegistry.isHeld answers true (GET /api/health).
 */
export async function runFollower(dbh: DbHandle, follower: Follower, options: RunOptions): Promise<RunOutcome> {
  if (options.signal?.aborted) return 'STOPPED';
  const lock = await dbh.tryLock(lockKey(follower));
  if (!lock) return 'LOCKED';
  const log = options.log;
  const context = { follower: follower.name, chainId: follower.network.chainId };
  markLockHeld(follower, true);
  log?.info(context, 'chain follower: took the lock');
  const handleLost = () => {
    markLockHeld(follower, false);
    const reason: unknown = lock.lost.reason;
    log?.warn(
      { ...context, ...(reason instanceof Error ? { reason: reason.message } : {}) },
      'chain follower: lost the lock; another node may follow this chain now',
    );
  };
  if (lock.lost.aborted) handleLost();
  else lock.lost.addEventListener('abort', handleLost, { once: true });
  const stop = options.signal ? AbortSignal.any([options.signal, lock.lost]) : lock.lost;
  const isOver = () => stop.aborted || (options.untilMs !== undefined && Date.now() >= options.untilMs);
  let maxBlocks = options.maxBlocks;
  let failures = 0;
  try {
    while (!isOver()) {
      let isCaughtUp = true;
      const startedAt = Date.now();
      try {
        const step = await followStep(dbh.db, follower, {
          maxBlocks,
          signal: stop,
          ...(options.rpcTimeoutMs ? { rpcTimeoutMs: options.rpcTimeoutMs } : {}),
          ...(log ? { log } : {}),
          ...(options.onConfirmedBlockLost ? { onConfirmedBlockLost: options.onConfirmedBlockLost } : {}),
        });
        isCaughtUp = step.to >= step.head;
        if (step.reorgedFrom !== null)
          log?.warn({ ...context, from: String(step.reorgedFrom) }, 'chain follower: reorg');
        maxBlocks = Math.min(options.maxBlocks, maxBlocks * 2);
        failures = 0;
      } catch (err) {
        if (stop.aborted) break;
        failures++;
        if (err instanceof RpcError && err.kind !== 'UNREACHABLE' && maxBlocks > 1)
          maxBlocks = Math.ceil(maxBlocks / 2);
        // The first failures of a flaky node are noise; a follower stuck for a minute is not.
        const level = err instanceof CursorMovedError || failures < 10 ? 'warn' : 'error';
        log?.[level]({ ...context, err, failures, maxBlocks }, 'chain follower: step failed; trying again');
      }
      if (isCaughtUp) await pause(options, stop, startedAt);
    }
  } finally {
    lock.lost.removeEventListener('abort', handleLost);
    const wasLost = lock.lost.aborted; // then handleLost has said so
    await lock.release();
    markLockHeld(follower, false);
    if (!wasLost) log?.info(context, 'chain follower: released the lock');
  }
  return lock.lost.aborted && !options.signal?.aborted ? 'LOCK_LOST' : 'STOPPED';
}

/**
 * Waits until pollMs after the step began (so the head is read every pollMs, not every pollMs plus
 * a step: bench:payments measured a step of 50–300 ms on a loaded machine), less when untilMs comes
 * first; ends at once when `stop` aborts.
 */
async function pause(options: RunOptions, stop: AbortSignal, stepStartedAt: number): Promise<void> {
  const nextStep = stepStartedAt + options.pollMs;
  const left = Math.min(nextStep, options.untilMs ?? Infinity) - Date.now();
  if (left <= 0 || stop.aborted) return;
  await sleep(left, undefined, { signal: stop }).catch(() => undefined);
}
