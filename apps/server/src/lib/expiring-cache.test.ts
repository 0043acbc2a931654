import { describe, expect, it } from 'vitest';
import { ExpiringCache } from './expiring-cache.ts';

describe('ExpiringCache', () => {
  it('returns a verified token until it expires, then forgets it', () => {
    const cache = new ExpiringCache<string>();
    cache.set('token-a', 'claims-a', 2_000);
    expect(cache.get('token-a', 1_999)).toBe('claims-a');
    expect(cache.get('token-a', 2_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never answers for a token that differs in any byte', () => {
    const cache = new ExpiringCache<string>();
    cache.set('header.payload.signature', 'claims', 10_000);
    expect(cache.get('header.payload.signaturf', 0)).toBeUndefined();
  });

  it('forgets a deleted entry at once', () => {
    const cache = new ExpiringCache<string>();
    cache.set('user-1', 'record', 10_000);
    cache.delete('user-1');
    expect(cache.get('user-1', 0)).toBeUndefined();
  });

  it('evicts the oldest entry when full', () => {
    const cache = new ExpiringCache<number>(2);
    cache.set('a', 1, 10_000);
    cache.set('b', 2, 10_000);
    cache.set('c', 3, 10_000);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 0)).toBe(2);
    expect(cache.get('c', 0)).toBe(3);
  });
});
