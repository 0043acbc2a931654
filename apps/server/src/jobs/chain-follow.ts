import { followerKey, runFollower, type Follower } from '../adapters/chains/follower/index.ts';
import type { Deps } from '../types.ts';
import type { Job } from './job.ts';
import type { JobContext } from './queue.ts';

/** The queue of the chain followers' runs (and of the minute's schedule that starts them). */
export const CHAIN_FOLLOW_JOB = 'chain-follow';

/** How long one run follows its chain before it hands over to the next run (a job it sends). */
export const RUN_SECONDS = 240;

/**
 * A run's job expires well after the run ends. pg-boss fails a handler that outlives its job's
 * expiry (and its maintenance fails an active job past it, the job of a node that died); the run
 * stops itself at RUN_SECONDS, so only a dead node's job ever gets there.
 */
export const RUN_EXPIRE_SECONDS = RUN_SECONDS * 2 + 60;

/** How often a node that does not follow a chain tries its lock (sendStandby). */
export const STANDBY_SECONDS = 10;

/** A run of one follower on one chain; the minute's schedule sends no data. */
export type ChainFollowData = { follower?: string; chainId?: number } | null;

/**
 * The chain followers (adapters/chains/follower) that the services added to `deps.followers`, each
 * followed by one node at a time:
 *
 * - A run is a job per follower and chain (singletonKey `name:chainId`): it takes the follower's
 *   advisory lock and steps for RUN_SECONDS (or answers at once when another node holds the
 *   lock), then sends the next run of itself, which this node's worker usually takes straight
 *   away; following is continuous while the node lives.
 * - Every minute the schedule (the same queue, no data) sends a run for every follower. The
 *   `short` policy keeps one waiting run per key, so this never piles up; a run that finds the
 *   lock taken ends at once and, on PostgreSQL, stands by: it comes back in STANDBY_SECONDS
 *   (sendStandby). When the holder dies its connection closes, the lock goes with it, and the next
 *   standby run on a live node takes over, from the cursor the dead node committed last (its
 *   writes and its cursor moved together, so nothing is credited twice or skipped).
 * - Not `stately`: its second job for a key stays waiting while the first is active, and pg-boss 10
 *   fetches it all the same and fails the whole fetch on the unique index, which would block the
 *   queue for as long as a run lasts. The lock, not the queue, keeps one run per chain.
 * - Each run passes the node's confirmed-block-lost hooks (deps.followers.onConfirmedBlockLost):
 *   the step that finds blocks it had confirmed replaced runs them in the rewind's transaction.
 * - A run holds its pg-boss worker for minutes, so a node has one worker per follower (and one for
 *   the schedule's job); the queue's stop aborts `job.signal`, the run ends its step at once and
 *   releases the lock, and the next run starts on another node within the minute.
 */
export const chainFollowJob: Job<ChainFollowData> = {
  name: CHAIN_FOLLOW_JOB,
  // Polled each second: the next run (sent by the run that ends) starts within a second.
  options: { policy: 'short', schedule: '* * * * *', runAtStart: true, pollingIntervalSeconds: 1 },
  concurrency: ({ followers }) => followers.list().length + 1,
  worker: (deps) => {
    if (deps.followers.list().length === 0) return undefined;
    return async (data, job) => {
      if (!data?.follower) {
        await startAll(deps, job);
        return;
      }
      const follower = deps.followers.find(data.follower, data.chainId ?? -1);
      if (!follower) {
        // Sent by a node that serves a service this one does not: its own runs will come.
        job.log?.warn({ ...data }, 'chain-follow: this node has no such follower');
        return;
      }
      const outcome = await runFollower(deps.dbh, follower, {
        ...deps.config.follower,
        untilMs: Date.now() + RUN_SECONDS * 1000,
        ...(job.signal ? { signal: job.signal } : {}),
        ...(job.log ? { log: job.log } : {}),
        onConfirmedBlockLost: deps.followers.confirmedBlockLostHooks(),
      });
      if (job.signal?.aborted) return;
      if (outcome === 'LOCKED') await sendStandby(deps, follower);
      else await sendRun(deps, follower);
    };
  },
};

/** Sends a run for every follower of this node; one already waiting keeps its place. */
async function startAll(deps: Deps, job: JobContext): Promise<void> {
  for (const follower of deps.followers.list()) {
    if (job.signal?.aborted) return;
    await sendRun(deps, follower);
  }
}

/**
 * Another node follows the chain: this run comes back in STANDBY_SECONDS to try the lock again, so
 * when the holder dies (its connection closes, the lock goes with it) a live node takes over
 * within seconds instead of at the next minute's schedule — which pg-boss may also tick late (a
 * dead node's QNT payment credited 65 s after its death; issue 31). One standby run waits per
 * follower (its own singleton key, beside the holder's next run); each costs one try of the lock.
 * The embedded database has one node: nobody to stand by for.
 */
function sendStandby(deps: Deps, follower: Follower): Promise<string | null> {
  if (deps.dbh.kind !== 'postgres') return Promise.resolve(null);
  return deps.jobs.send(
    CHAIN_FOLLOW_JOB,
    { follower: follower.name, chainId: follower.network.chainId },
    {
      singletonKey: `${followerKey(follower)}:standby`,
      startAfterSeconds: STANDBY_SECONDS,
      expireInSeconds: RUN_EXPIRE_SECONDS,
      retryLimit: 0,
    },
  );
}

function sendRun(deps: Deps, follower: Follower): Promise<string | null> {
  return deps.jobs.send(
    CHAIN_FOLLOW_JOB,
    { follower: follower.name, chainId: follower.network.chainId },
    // No retries: a run that failed is replaced by the next minute's.
    { singletonKey: followerKey(follower), expireInSeconds: RUN_EXPIRE_SECONDS, retryLimit: 0 },
  );
}
