import { describe, expect, it } from 'vitest';
import { GATEWAY_CACHE_MS } from './credential-cache.ts';
import type { RouteFacts } from './repository.ts';
import { RouteCache } from './route-cache.ts';

const FACTS: RouteFacts = {
  networkId: 'net',
  networkName: 'Chain X',
  rpcUrl: 'http://node',
  rateLimit: 25,
  accountId: 'acc',
  inService: true,
  isAssociated: true,
  isActive: true,
  capMicro: null,
  monthMicro: 0,
};

const cacheOf = (facts: RouteFacts | undefined, months: string[] = []) =>
  new RouteCache({
    findRoute: async (_app, _network, month) => {
      months.push(month);
      return facts;
    },
  });

describe('RouteCache', () => {
  it('says where an application’s calls to a network go, and why not', async () => {
    expect(await cacheOf(FACTS).resolve('app', 'net')).toEqual({
      kind: 'ok',
      networkId: 'net',
      accountId: 'acc',
      rpcUrl: 'http://node',
      rateLimit: 25,
      rateLimitKey: 'acc|net',
    });
    expect(await cacheOf(undefined).resolve('app', 'net')).toEqual({ kind: 'unknown-network' });
    expect(await cacheOf({ ...FACTS, isAssociated: false }).resolve('app', 'net')).toEqual({ kind: 'not-associated' });
    expect(await cacheOf({ ...FACTS, isActive: false }).resolve('app', 'net')).toEqual({ kind: 'not-active' });
    // The account's plan out of service refuses every call.
    expect(await cacheOf({ ...FACTS, inService: false }).resolve('app', 'net')).toEqual({ kind: 'plan-inactive' });
    expect(await cacheOf({ ...FACTS, rateLimit: 5 }).resolve('app', 'net')).toMatchObject({ kind: 'ok', rateLimit: 5 });
    expect(await cacheOf({ ...FACTS, rpcUrl: null }).resolve('app', 'net')).toEqual({
      kind: 'no-rpc',
      networkName: 'Chain X',
    });
  });

  it('knows a route for GATEWAY_CACHE_MS, per application and network name, until the application changes', async () => {
    const cache = cacheOf(FACTS);
    expect(cache.known('app', 'net', 0)).toBeUndefined();
    await cache.resolve('app', 'net', 0);
    expect(cache.known('app', 'net', GATEWAY_CACHE_MS - 1)).toMatchObject({ kind: 'ok' });
    expect(cache.known('app', 'net', GATEWAY_CACHE_MS)).toBeUndefined();
    expect(cache.known('app', 'other-name', 1)).toBeUndefined();
    cache.forgetApplication('app');
    expect(cache.known('app', 'net', 1)).toBeUndefined();
  });

  it('refuses an application at its monthly cap until the month ends, reading the spend of the node’s UTC month', async () => {
    const months: string[] = [];
    const nearEnd = Date.parse('2026-11-30T23:59:59.000Z');
    const cache = cacheOf({ ...FACTS, capMicro: 5_000_000, monthMicro: 5_000_100 }, months);
    expect(await cache.resolve('app', 'net', nearEnd)).toEqual({
      kind: 'cap-reached',
      capCredits: 5,
      monthEndsMs: Date.parse('2026-12-01T00:00:00Z'),
    });
    expect(months).toEqual(['2026-11-01']);
    // Not kept past the month's end, though GATEWAY_CACHE_MS is longer than what is left of it.
    expect(cache.known('app', 'net', nearEnd + 999)).toMatchObject({ kind: 'cap-reached' });
    expect(cache.known('app', 'net', nearEnd + 1_000)).toBeUndefined();
    // Under the cap: open.
    expect(await cacheOf({ ...FACTS, capMicro: 5_000_000, monthMicro: 4_999_999 }).resolve('app', 'net')).toMatchObject(
      {
        kind: 'ok',
      },
    );
  });
});
