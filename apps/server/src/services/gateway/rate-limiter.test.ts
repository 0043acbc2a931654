import { describe, expect, it } from 'vitest';
import { NetworkRateLimiter } from './rate-limiter.ts';

describe('NetworkRateLimiter', () => {
  it('counts calls per key in one-second windows and says when to retry', () => {
    const limiter = new NetworkRateLimiter();
    expect(limiter.isLocal).toBe(true);
    expect(limiter.take('a', 3, 2, 10_000)).toEqual({ allowed: true });
    // A refused take costs nothing: the one call left still passes.
    expect(limiter.take('a', 3, 2, 10_100)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('a', 3, 1, 10_200)).toEqual({ allowed: true });
    expect(limiter.take('a', 3, 1, 10_999)).toMatchObject({ allowed: false });
    expect(limiter.take('b', 3, 3, 10_999)).toEqual({ allowed: true });
    expect(limiter.take('a', 3, 3, 11_000)).toEqual({ allowed: true });
  });
});
