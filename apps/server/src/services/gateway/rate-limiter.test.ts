import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_BATCH } from './methods.ts';
import { NetworkRateLimiter } from './rate-limiter.ts';

const redisUrl = process.env.REDIS_URL;

/** The same expectations for the in-memory bucket and for the one shared through Redis. */
function behaves(name: string, makeLimiter: () => Promise<NetworkRateLimiter>) {
  describe(name, () => {
    const key = () => `test-${randomUUID()}`;

    it('refills at the rate, refuses what is not there, and says when it will be', async () => {
      const limiter = await makeLimiter();
      const k = key();
      // A full bucket: the largest batch passes even though the rate is 3 a second.
      expect(await limiter.take(k, 3, MAX_BATCH, 10_000)).toEqual({ allowed: true });
      expect(await limiter.take(k, 3, 1, 10_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
      // A third of a second later one call has come back; a refused take costs nothing.
      expect(await limiter.take(k, 3, 2, 10_340)).toEqual({ allowed: false, retryAfterSeconds: 1 });
      expect(await limiter.take(k, 3, 1, 10_340)).toEqual({ allowed: true });
      // 30 calls at 3 a second come back after 10 s: the Retry-After a client can trust.
      expect(await limiter.take(k, 3, 30, 10_340)).toEqual({ allowed: false, retryAfterSeconds: 10 });
      expect(await limiter.take(k, 3, 30, 20_340)).toEqual({ allowed: true });
      // Other keys are not touched.
      expect(await limiter.take(key(), 3, 3, 20_340)).toEqual({ allowed: true });
    });

    it('sustains the rate: 25 a second for 4 s is never refused, the 26th call of a second after the burst is', async () => {
      const limiter = await makeLimiter();
      const k = key();
      expect(await limiter.take(k, 25, MAX_BATCH, 0)).toEqual({ allowed: true });
      for (let second = 1; second <= 4; second++)
        for (let call = 0; call < 25; call++)
          expect(await limiter.take(k, 25, 1, second * 1000 + call)).toEqual({ allowed: true });
      expect(await limiter.take(k, 25, 2, 4_030)).toMatchObject({ allowed: false });
    });

    it('a rate above the largest batch bursts up to the rate', async () => {
      const limiter = await makeLimiter();
      const k = key();
      expect(await limiter.take(k, 500, 400, 0)).toEqual({ allowed: true });
      expect(await limiter.take(k, 500, 100, 0)).toEqual({ allowed: true });
      expect(await limiter.take(k, 500, 1, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    });

    it('a rate of 0 never allows a call and promises no retry', async () => {
      const limiter = await makeLimiter();
      expect(await limiter.take(key(), 0, 1, 0)).toEqual({ allowed: false, retryAfterSeconds: null });
    });
  });
}

behaves('NetworkRateLimiter in memory', async () => {
  const limiter = new NetworkRateLimiter();
  expect(limiter.isLocal).toBe(true);
  return limiter;
});

describe.runIf(Boolean(redisUrl))('NetworkRateLimiter through Redis', () => {
  const clients: { disconnect(): void }[] = [];
  afterAll(() => clients.forEach((client) => client.disconnect()));
  const node = async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    return new NetworkRateLimiter(redis);
  };

  behaves('one node', node);

  it('two nodes draw from one bucket', async () => {
    const [a, b] = await Promise.all([node(), node()]);
    const k = `test-${randomUUID()}`;
    expect(await a.take(k, 10, 60, 5_000)).toEqual({ allowed: true });
    expect(await b.take(k, 10, 40, 5_000)).toEqual({ allowed: true });
    expect(await a.take(k, 10, 1, 5_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await b.take(k, 10, 5, 5_500)).toEqual({ allowed: true });
  });

  it('falls back to the node’s own bucket when Redis fails', async () => {
    const { Redis } = await import('ioredis');
    const dead = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    clients.push(dead);
    const limiter = new NetworkRateLimiter(dead);
    expect(limiter.isLocal).toBe(false);
    const k = `test-${randomUUID()}`;
    expect(await limiter.take(k, 3, MAX_BATCH, 0)).toEqual({ allowed: true });
    expect(await limiter.take(k, 3, 1, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});
