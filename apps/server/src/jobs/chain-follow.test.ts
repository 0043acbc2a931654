import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FollowerRegistry, lockKey, type Follower } from '../adapters/chains/follower/index.ts';
import { recipient, useFollowerSuite } from '../adapters/chains/follower/test-support.ts';
import type { Deps } from '../types.ts';
import { CHAIN_FOLLOW_JOB, chainFollowJob, RUN_EXPIRE_SECONDS, RUN_SECONDS, STANDBY_SECONDS } from './chain-follow.ts';
import { registerJobs } from './index.ts';
import { JobQueue, type SendOptions } from './queue.ts';

const log = pino({ level: 'silent' });

describe('chain-follow job', () => {
  const s = useFollowerSuite();
  afterEach(() => vi.restoreAllMocks());

  /** Deps of a node with these followers; `sent` records what its handler queues. */
  function node(followers: Follower[]) {
    const registry = new FollowerRegistry();
    for (const follower of followers) registry.add(follower);
    const sent: { data: object; options: SendOptions }[] = [];
    const jobs = {
      send: async (_name: string, data: object, options: SendOptions) => {
        sent.push({ data, options });
        return 'job-id';
      },
    };
    const deps = {
      dbh: s.dbh,
      followers: registry,
      jobs,
      config: { follower: { pollMs: 20, maxBlocks: 100 } },
    } as unknown as Deps;
    return { deps, sent };
  }
  const context = (signal?: AbortSignal) => ({ id: 'job-1', retryCount: 0, log, ...(signal ? { signal } : {}) });

  it('registers only on a node with followers, with a worker per follower and one for the schedule', () => {
    const names: string[] = [];
    const options: unknown[] = [];
    const queue = { register: (name: string, _h: unknown, o: unknown) => names.push(name) && options.push(o) };
    expect(registerJobs(queue as never, node([]).deps, [chainFollowJob])).toEqual([]);
    const two = node([s.owner('a').follower, s.owner('b').follower]).deps;
    expect(registerJobs(queue as never, two, [chainFollowJob])).toEqual([CHAIN_FOLLOW_JOB]);
    expect(options).toEqual([
      { policy: 'short', schedule: '* * * * *', runAtStart: true, pollingIntervalSeconds: 1, concurrency: 3 },
    ]);
  });

  it("the minute's schedule sends one run per follower, keyed by follower and chain, expiring after the run", async () => {
    const { deps, sent } = node([s.owner('qnt-deposits').follower, s.owner('bridge').follower]);
    await chainFollowJob.worker(deps)!(null, context());
    const key = (name: string) => `${name}:${s.chain.chainId}`;
    expect(sent).toEqual([
      {
        data: { follower: 'qnt-deposits', chainId: s.chain.chainId },
        options: { singletonKey: key('qnt-deposits'), expireInSeconds: RUN_EXPIRE_SECONDS, retryLimit: 0 },
      },
      {
        data: { follower: 'bridge', chainId: s.chain.chainId },
        options: { singletonKey: key('bridge'), expireInSeconds: RUN_EXPIRE_SECONDS, retryLimit: 0 },
      },
    ]);
    expect(RUN_EXPIRE_SECONDS).toBeGreaterThan(RUN_SECONDS + 60);
  });

  it('a run follows its chain until its time is up, then sends the next run of itself', async () => {
    const { follower, seen } = s.owner('run', { startBlock: (await s.head()) + 1n });
    const { deps, sent } = node([follower]);
    const transfer = await s.transfer(recipient(1));
    const run = chainFollowJob.worker(deps)!({ follower: 'run', chainId: s.chain.chainId }, context());
    await expect.poll(seen).toEqual([transfer.hash]);
    expect(sent).toEqual([]);
    // RUN_SECONDS later (a clock that goes on ticking).
    const now = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => now() + RUN_SECONDS * 1000);
    await run;
    expect(sent).toEqual([{ data: { follower: 'run', chainId: s.chain.chainId }, options: expect.anything() }]);
  });

  it('a run that finds the chain followed elsewhere stands by (on PostgreSQL); the queue stopping sends nothing', async () => {
    const { follower } = s.owner('elsewhere', {});
    const { deps, sent } = node([follower]);
    const handler = chainFollowJob.worker(deps)!;
    const lock = await s.dbh.tryLock(lockKey(follower));
    await handler({ follower: 'elsewhere', chainId: s.chain.chainId }, context());
    await lock!.release();
    // Several nodes share PostgreSQL: this one tries the lock again in STANDBY_SECONDS, under a key
    // of its own beside the holder's next run. The embedded database has one node: nothing.
    expect(sent.splice(0)).toEqual(
      s.dbh.kind === 'postgres'
        ? [
            {
              data: { follower: 'elsewhere', chainId: s.chain.chainId },
              options: {
                singletonKey: `elsewhere:${s.chain.chainId}:standby`,
                startAfterSeconds: STANDBY_SECONDS,
                expireInSeconds: RUN_EXPIRE_SECONDS,
                retryLimit: 0,
              },
            },
          ]
        : [],
    );
    const stopping = new AbortController();
    const run = handler({ follower: 'elsewhere', chainId: s.chain.chainId }, context(stopping.signal));
    setTimeout(() => stopping.abort(), 100);
    await run;
    // Not this node's follower: nothing either.
    await handler({ follower: 'unknown', chainId: 1 }, context());
    expect(sent).toEqual([]);
  });

  it('on pg-boss: the schedule starts the run, the queue stop ends it at once, another node takes over', async () => {
    const { follower, seen } = s.owner('takeover', { startBlock: (await s.head()) + 1n });
    const fast = { ...chainFollowJob, options: { ...chainFollowJob.options, pollingIntervalSeconds: 0.5 } };
    /** A node: its own queue and registry over the one database. */
    const startNode = async () => {
      const queue = new JobQueue(s.dbh, log);
      const followers = new FollowerRegistry();
      followers.add(follower);
      const deps = { dbh: s.dbh, followers, jobs: queue, config: { follower: { pollMs: 50, maxBlocks: 100 } } };
      registerJobs(queue, deps as unknown as Deps, [fast]);
      await queue.start();
      return queue;
    };
    const nodeA = await startNode();
    let nodeB: JobQueue | undefined;
    try {
      const one = await s.transfer(recipient(2));
      // What the minute's schedule queues.
      await nodeA.send(CHAIN_FOLLOW_JOB, {});
      await expect.poll(seen, { timeout: 15_000 }).toEqual([one.hash]);
      nodeB = await startNode();
      // The next minute's run, on either node, finds the chain followed: node A keeps it.
      await nodeB.send(CHAIN_FOLLOW_JOB, {});
      expect(await s.dbh.tryLock(lockKey(follower))).toBeNull();

      // The stop waits (up to 10 s) for running jobs: the run ended at once, releasing the lock.
      const stopping = Date.now();
      await nodeA.stop();
      expect(Date.now() - stopping).toBeLessThan(3_000);

      const two = await s.transfer(recipient(3));
      await nodeB.send(CHAIN_FOLLOW_JOB, {});
      await expect.poll(seen, { timeout: 15_000 }).toEqual([one.hash, two.hash]);
    } finally {
      await nodeA.stop();
      await nodeB?.stop();
    }
  });
});
