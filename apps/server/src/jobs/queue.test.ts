import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '@connect/db';
import { createTestDatabase } from '@connect/db/testing';
import { JobQueue } from './queue.ts';

const log = pino({ level: 'silent' });

/** Resolves with the data of the first `count` jobs a worker receives. */
function collector<T>(count: number) {
  const seen: T[] = [];
  let resolve!: (value: T[]) => void;
  const done = new Promise<T[]>((r) => (resolve = r));
  return {
    handler: async (data: T) => {
      seen.push(data);
      if (seen.length === count) resolve(seen);
    },
    done,
    seen,
  };
}

describe('JobQueue (pg-boss on the app database)', () => {
  let dbh: DbHandle;
  beforeAll(async () => {
    dbh = await createTestDatabase();
  });
  afterAll(() => dbh?.close());

  it('runs a queued job in the registered worker', async () => {
    const queue = new JobQueue(dbh, log);
    const jobs = collector<{ n: number }>(1);
    queue.register('test-run', jobs.handler, { pollingIntervalSeconds: 0.5 });
    await queue.start();
    await queue.send('test-run', { n: 42 });
    expect(await jobs.done).toEqual([{ n: 42 }]);
    await queue.stop();
  });

  it('runs a scheduled job marked runAtStart once when the queue starts, before its schedule ticks', async () => {
    const queue = new JobQueue(dbh, log);
    const jobs = collector<object>(1);
    queue.register('test-at-start', jobs.handler, {
      pollingIntervalSeconds: 0.5,
      schedule: '0 0 1 1 *',
      runAtStart: true,
    });
    await queue.start();
    expect(await jobs.done).toEqual([{}]);
    await queue.stop();
  });

  it('keeps a job queued across a restart: the next node to start runs it', async () => {
    const first = new JobQueue(dbh, log);
    // The first node queues work but stops before any worker of that queue takes it.
    first.register(
      'test-restart',
      async () => {
        throw new Error('not this node');
      },
      { pollingIntervalSeconds: 30 },
    );
    await first.start();
    await first.send('test-restart', { order: 'A-1' }, { startAfterSeconds: 1 });
    await first.stop();

    const second = new JobQueue(dbh, log);
    const jobs = collector<{ order: string }>(1);
    second.register('test-restart', jobs.handler, { pollingIntervalSeconds: 0.5 });
    await second.start();
    expect(await jobs.done).toEqual([{ order: 'A-1' }]);
    await second.stop();
  });

  it('queues one job per singleton key while it is waiting', async () => {
    const queue = new JobQueue(dbh, log);
    queue.register('test-singleton', async () => undefined, { pollingIntervalSeconds: 30, policy: 'short' });
    await queue.start();
    const firstId = await queue.send('test-singleton', { id: 1 }, { singletonKey: 'token-1', startAfterSeconds: 60 });
    const secondId = await queue.send('test-singleton', { id: 1 }, { singletonKey: 'token-1', startAfterSeconds: 60 });
    expect(firstId).toEqual(expect.any(String));
    expect(secondId).toBeNull();
    await queue.stop();
  });

  it('refuses a second worker for the same queue', () => {
    const queue = new JobQueue(dbh, log);
    queue.register('test-twice', async () => undefined);
    expect(() => queue.register('test-twice', async () => undefined)).toThrow(/registered twice/);
    expect(queue.has('test-twice')).toBe(true);
    expect(queue.has('test-other')).toBe(false);
  });

  it("stores a recurring job's schedule, once, for pg-boss's shared cron clock", async () => {
    const queue = new JobQueue(dbh, log);
    queue.register('test-every-minute', async () => undefined, { policy: 'stately', schedule: '* * * * *' });
    await queue.start();
    await queue.stop();
    // A second node starting with the same job keeps the one schedule.
    const again = new JobQueue(dbh, log);
    again.register('test-every-minute', async () => undefined, { policy: 'stately', schedule: '* * * * *' });
    await again.start();
    const { rows } = await dbh.execute(`select name, cron from pgboss.schedule where name = 'test-every-minute'`);
    expect(rows).toEqual([{ name: 'test-every-minute', cron: '* * * * *' }]);
    await again.stop();
  });

  it('refuses late registrations and sends after stop, so work is never silently dropped', async () => {
    const queue = new JobQueue(dbh, log);
    queue.register('test-late', async () => undefined);
    await queue.start();
    expect(() => queue.register('test-late-2', async () => undefined)).toThrow(/before the queue starts/);
    await queue.stop();
    await expect(queue.send('test-late', {})).rejects.toThrow(/stopped/);
  });
  it('brings a queue made by an earlier release to its registered policy and expiry (jobs of a node that died retried sooner)', async () => {
    const before = new JobQueue(dbh, log);
    before.register('test-settings', async () => undefined, { policy: 'stately' });
    await before.start();
    await before.stop();
    const after = new JobQueue(dbh, log);
    after.register('test-settings', async () => undefined, { policy: 'short', expireInSeconds: 20 });
    const boss = await after.start();
    expect(await boss.getQueue('test-settings')).toMatchObject({ policy: 'short', expireInSeconds: 20 });
    await boss.send('test-settings', {}, { startAfter: 3600 });
    const { rows } = await dbh.execute(
      `select policy, extract(epoch from expire_in)::int as expire from pgboss.job where name = 'test-settings'`,
    );
    expect(rows).toEqual([{ policy: 'short', expire: 20 }]);
    await after.stop();
  });
});
