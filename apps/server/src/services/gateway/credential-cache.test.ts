import { describe, expect, it } from 'vitest';
import { CredentialCache, GATEWAY_CACHE_MS } from './credential-cache.ts';
import type { SecretValidity } from './repository.ts';

/** A cache over a stored secret the test changes, counting the reads. */
function cacheOver(stored: { secret: SecretValidity | undefined }) {
  let reads = 0;
  const cache = new CredentialCache({
    findSecretValidity: async () => {
      reads++;
      return stored.secret;
    },
  });
  return { cache, reads: () => reads };
}

describe('CredentialCache', () => {
  it('reads a secret once per GATEWAY_CACHE_MS and knows the answer meanwhile', async () => {
    const stored = {
      secret: { isRevoked: false, expiresAtMs: null, isAccountActive: true } as SecretValidity | undefined,
    };
    const { cache, reads } = cacheOver(stored);
    expect(cache.known('s', 'a', 0)).toBeUndefined();
    expect(await cache.isValid('s', 'a', 0)).toBe(true);
    stored.secret = { isRevoked: true, expiresAtMs: null, isAccountActive: true };
    expect(cache.known('s', 'a', GATEWAY_CACHE_MS - 1)).toBe(true);
    // Another application's claim on the same secret id is not this entry.
    expect(cache.known('s', 'other', 1)).toBeUndefined();
    expect(await cache.isValid('s', 'a', GATEWAY_CACHE_MS)).toBe(false);
    expect(reads()).toBe(2);
  });

  it('re-reads a secret when it expires, and refuses secrets that are gone or expired', async () => {
    const stored = {
      secret: { isRevoked: false, expiresAtMs: 500, isAccountActive: true } as SecretValidity | undefined,
    };
    const { cache } = cacheOver(stored);
    expect(await cache.isValid('s', 'a', 0)).toBe(true);
    expect(cache.known('s', 'a', 499)).toBe(true);
    expect(cache.known('s', 'a', 500)).toBeUndefined();
    expect(await cache.isValid('s', 'a', 500)).toBe(false);
    stored.secret = undefined;
    expect(await cache.isValid('gone', 'a', 0)).toBe(false);
  });

  it('refuses a live secret while its account is not active, and admits it again once it is', async () => {
    const stored = { secret: { isRevoked: false, expiresAtMs: null, isAccountActive: true } as SecretValidity };
    const { cache } = cacheOver(stored);
    expect(await cache.isValid('s', 'a', 0)).toBe(true);
    // Staff removed the account's last active user.
    stored.secret = { ...stored.secret, isAccountActive: false };
    cache.forgetApplication('a');
    expect(await cache.isValid('s', 'a', 1)).toBe(false);
    expect(cache.known('s', 'a', 2)).toBe(false);
    // A user restored: the same secret, read again after the cache's lifetime.
    stored.secret = { ...stored.secret, isAccountActive: true };
    expect(cache.known('s', 'a', 1 + GATEWAY_CACHE_MS)).toBeUndefined();
    expect(await cache.isValid('s', 'a', 1 + GATEWAY_CACHE_MS)).toBe(true);
  });

  it('forgets an application’s secrets when told (a revocation on this node counts at once)', async () => {
    const { cache } = cacheOver({ secret: { isRevoked: false, expiresAtMs: null, isAccountActive: true } });
    await cache.isValid('s1', 'a', 0);
    await cache.isValid('s2', 'b', 0);
    cache.forgetApplication('a');
    expect(cache.known('s1', 'a', 1)).toBeUndefined();
    expect(cache.known('s2', 'b', 1)).toBe(true);
  });
});
