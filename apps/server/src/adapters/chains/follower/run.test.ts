import { describe, expect, it } from 'vitest';
import type { DbHandle } from '@connect/db';
import { FollowerRegistry } from './registry.ts';
import { runFollower, type RunOptions } from './run.ts';
import { recipient, useFollowerSuite } from './test-support.ts';

/** runFollower on an anvil chain and a test database (PostgreSQL too when DATABASE_URL is set). */
describe('chain follower: the loop', () => {
  const s = useFollowerSuite();
  const fresh = async () => (await s.head()) + 1n;
  /** A test logger: the lines logged, with their fields. */
  const quiet = () => {
    const lines: { level: string; message: string; fields: object }[] = [];
    const at = (level: string) => (fields: object, message: string) => void lines.push({ level, message, fields });
    return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as never };
  };
  const isLockLine = (line: { message: string }) => /^chain follower: (took|released|lost) the lock/.test(line.message);

  it('one loop per follower and chain: a second one answers LOCKED at once; the lock is free once the first stops', async () => {
    const { follower, seen } = s.owner('locked', { startBlock: await fresh() });
    const sent = await s.transfer(recipient(1));
    const stop = new AbortController();
    const first = runFollower(s.dbh, follower, { pollMs: 50, maxBlocks: 100, signal: stop.signal });
    await expect.poll(seen).toEqual([sent.hash]);
    await expect(runFollower(s.dbh, follower, { pollMs: 50, maxBlocks: 100 })).resolves.toBe('LOCKED');
    stop.abort();
    await expect(first).resolves.toBe('STOPPED');
    // Free again: the next loop takes it and stops when its time is up.
    await expect(runFollower(s.dbh, follower, { pollMs: 50, maxBlocks: 100, untilMs: Date.now() + 200 })).resolves.toBe(
      'STOPPED',
    );
    expect(await seen()).toEqual([sent.hash]);
  });

  it('catches up without waiting between steps, then follows the head every pollMs', async () => {
    const startBlock = await fresh();
    await s.mine(40);
    const { follower, calls } = s.owner('catch-up', { startBlock });
    const stop = new AbortController();
    // A minute between polls: only steps that do not wait can cover 41 blocks, 5 at a time, now.
    const run = runFollower(s.dbh, follower, { pollMs: 60_000, maxBlocks: 5, signal: stop.signal });
    const head = await s.head();
    await expect.poll(() => calls.confirmed.at(-1), { timeout: 10_000 }).toBe(head);
    const started = Date.now();
    stop.abort();
    await expect(run).resolves.toBe('STOPPED');
    // The abort ends the wait at once.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('logs a failing node and tries again at the next poll, never throwing out of the loop', async () => {
    const { follower } = s.owner('unreachable', {});
    const down = { ...follower, network: { ...follower.network, rpcUrl: 'http://127.0.0.1:9' } };
    const { lines, log } = quiet();
    const options: RunOptions = { pollMs: 100, maxBlocks: 100, untilMs: Date.now() + 500, log };
    await expect(runFollower(s.dbh, down, options)).resolves.toBe('STOPPED');
    const steps = lines.filter((line) => !isLockLine(line));
    expect(steps.length).toBeGreaterThan(2);
    expect(steps.every((line) => line.level === 'warn' && /step failed/.test(line.message))).toBe(true);
  });

  it("survives an owner's failure: the same logs come again at the next poll and count once", async () => {
    const { follower, seen } = s.owner('owner-retry', { startBlock: await fresh() });
    let failures = 2;
    const flaky = {
      ...follower,
      onLogs: async (...args: Parameters<typeof follower.onLogs>) => {
        await follower.onLogs(...args);
        if (failures-- > 0) throw new Error('the owner is down');
      },
    };
    const sent = await s.transfer(recipient(2));
    const stop = new AbortController();
    const { lines, log } = quiet();
    const run = runFollower(s.dbh, flaky, { pollMs: 20, maxBlocks: 100, signal: stop.signal, log });
    await expect.poll(seen).toEqual([sent.hash]);
    stop.abort();
    await run;
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(2);
    expect(await seen()).toEqual([sent.hash]);
  });

  it('does nothing when the signal has already aborted', async () => {
    const { follower } = s.owner('aborted');
    await expect(
      runFollower(s.dbh, follower, { pollMs: 50, maxBlocks: 100, signal: AbortSignal.abort() }),
    ).resolves.toBe('STOPPED');
  });

  it('tells the operator which node follows: "took the lock" and "released the lock" at info, held meanwhile', async () => {
    const { follower } = s.owner('told', { startBlock: await fresh() });
    const registry = new FollowerRegistry();
    registry.add(follower);
    const { lines, log } = quiet();
    const stop = new AbortController();
    const run = runFollower(s.dbh, follower, { pollMs: 50, maxBlocks: 100, signal: stop.signal, log });
    const who = { follower: 'told', chainId: s.chain.chainId };
    await expect.poll(() => registry.isHeld(follower)).toBe(true);
    expect(lines.filter(isLockLine)).toEqual([
      { level: 'info', message: 'chain follower: took the lock', fields: who },
    ]);
    // A second loop finds the chain followed and says nothing of the lock.
    await expect(runFollower(s.dbh, follower, { pollMs: 50, maxBlocks: 100, log })).resolves.toBe('LOCKED');
    stop.abort();
    await expect(run).resolves.toBe('STOPPED');
    expect(registry.isHeld(follower)).toBe(false);
    expect(lines.filter(isLockLine)).toEqual([
      { level: 'info', message: 'chain follower: took the lock', fields: who },
      { level: 'info', message: 'chain follower: released the lock', fields: who },
    ]);
  });

  it('says at once when the lock is lost (its connection went), and holds it no more', async () => {
    const { follower } = s.owner('cut', { startBlock: await fresh() });
    const registry = new FollowerRegistry();
    registry.add(follower);
    // The lock's connection cut: the database's own lock, reported lost when the test says so.
    const cut = new AbortController();
    const dbh: DbHandle = {
      ...s.dbh,
      tryLock: async (key) => {
        const lock = await s.dbh.tryLock(key);
        return lock && { lost: AbortSignal.any([lock.lost, cut.signal]), release: lock.release };
      },
    };
    const { lines, log } = quiet();
    const run = runFollower(dbh, follower, { pollMs: 50, maxBlocks: 100, log });
    await expect.poll(() => registry.isHeld(follower)).toBe(true);
    cut.abort(new Error('lock chain-follower:cut: its connection closed'));
    // Logged when it happens, not when the loop gets round to it.
    expect(registry.isHeld(follower)).toBe(false);
    expect(lines.filter(isLockLine).at(-1)).toEqual({
      level: 'warn',
      message: 'chain follower: lost the lock; another node may follow this chain now',
      fields: { follower: 'cut', chainId: s.chain.chainId, reason: 'lock chain-follower:cut: its connection closed' },
    });
    await expect(run).resolves.toBe('LOCK_LOST');
    // Lost is not released: one line says what happened.
    expect(lines.filter(isLockLine).map((line) => line.message)).toEqual([
      'chain follower: took the lock',
      'chain follower: lost the lock; another node may follow this chain now',
    ]);
  });
});
