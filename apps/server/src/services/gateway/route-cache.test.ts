import { describe, expect, it } from 'vitest';
import { GATEWAY_CACHE_MS } from './credential-cache.ts';
import type { RouteFacts } from './repository.ts';
import { RouteCache } from './route-cache.ts';

const FACTS: RouteFacts = {
  networkId: 'net',
  networkName: 'Chain X',
  rpcUrl: 'http://node',
  rateLimit: 25,
  isPlanRateLimit: false,
  accountId: 'acc',
  inService: true,
  isAssociated: true,
  isActive: true,
};

const cacheOf = (facts: RouteFacts | undefined) => new RouteCache({ findRoute: async () => facts });

describe('RouteCache', () => {
  it('says where an application’s calls to a network go, and why not', async () => {
    expect(await cacheOf(FACTS).resolve('app', 'net')).toEqual({
      kind: 'ok',
      networkId: 'net',
      accountId: 'acc',
      rpcUrl: 'http://node',
      rateLimit: 25,
      isPlanRateLimit: false,
      rateLimitKey: 'acc|net',
    });
    expect(await cacheOf(undefined).resolve('app', 'net')).toEqual({ kind: 'unknown-network' });
    expect(await cacheOf({ ...FACTS, isAssociated: false }).resolve('app', 'net')).toEqual({ kind: 'not-associated' });
    expect(await cacheOf({ ...FACTS, isActive: false }).resolve('app', 'net')).toEqual({ kind: 'not-active' });
    // The account's plan out of service refuses every call.
    expect(await cacheOf({ ...FACTS, inService: false }).resolve('app', 'net')).toEqual({ kind: 'plan-inactive' });
    expect(await cacheOf({ ...FACTS, rateLimit: 5, isPlanRateLimit: true }).resolve('app', 'net')).toMatchObject({
      kind: 'ok',
      rateLimit: 5,
      isPlanRateLimit: true,
    });
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
});
