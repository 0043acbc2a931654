import type { ConfirmedBlockLostHook, Follower } from './types.ts';

/** The key of a follower on its chain: its cursor's, its lock's and its job's. */
export const followerKey = (follower: Pick<Follower, 'name' | 'network'>): string =>
  `${follower.name}:${follower.network.chainId}`;

/**
 * The followers whose lock a run holds now (runFollower marks and unmarks them; GET /api/health
 * reads them through FollowerRegistry.isHeld). Kept by the follower object a node's registry hands
 * to its runs, so that two apps in one process (the two-node tests) each answer for their own.
 */
const heldLocks = new WeakSet<Follower>();

/** Marks whether this process holds `follower`'s lock now (runFollower only). */
export function markLockHeld(follower: Follower, isHeld: boolean): void {
  if (isHeld) heldLocks.add(follower);
  else heldLocks.delete(follower);
}

/**
 * The chain followers of this node, added by the services while they are assembled (before the
 * jobs are registered); jobs/chain-follow.ts runs each of them on one node at a time.
 */
export class FollowerRegistry {
  private readonly followers: Follower[] = [];
  private readonly lostHooks: ConfirmedBlockLostHook[] = [];

  add(follower: Follower): void {
    if (!follower.name.trim()) throw new Error('A chain follower needs a name.');
    if (!Number.isInteger(follower.confirmations) || follower.confirmations < 1) {
      throw new Error(`Chain follower ${follower.name}: confirmations must be a whole number of at least 1.`);
    }
    if (this.find(follower.name, follower.network.chainId)) {
      throw new Error(`Chain follower ${followerKey(follower)} is added twice.`);
    }
    this.followers.push(follower);
  }

  list(): readonly Follower[] {
    return this.followers;
  }

  /**
   * Registers a hook every follower of this node runs when blocks it had confirmed are lost (see
   * ConfirmedBlockLostHook). A hook that depends on one follower's cursor acts only on losses whose
   * `follower` is that one (QNT payments: 'qnt-deposits'); the bridge relayer adds its own.
   */
  onConfirmedBlockLost(hook: ConfirmedBlockLostHook): void {
    this.lostHooks.push(hook);
  }

  confirmedBlockLostHooks(): readonly ConfirmedBlockLostHook[] {
    return this.lostHooks;
  }

  /** Whether this node follows `follower` now: one of its runs holds the follower's lock. */
  isHeld(follower: Follower): boolean {
    return heldLocks.has(follower);
  }

  find(name: string, chainId: number): Follower | undefined {
    return this.followers.find((f) => f.name === name && f.network.chainId === chainId);
  }
}
