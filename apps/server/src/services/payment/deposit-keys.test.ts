import { HDKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEPOSIT_BRANCH, depositKeysFromSeed, depositKeysFromXpub } from './deposit-keys.ts';

const seed = new Uint8Array(32).map((_, i) => i + 1);

describe('deposit keys', () => {
  it('derives the same addresses from the extended public key as from the seed, and only the seed signs', () => {
    const fromSeed = depositKeysFromSeed(seed, null);
    const xpub = HDKey.fromMasterSeed(seed).derive(DEPOSIT_BRANCH).publicExtendedKey;
    expect(fromSeed.xpub).toBe(xpub);
    const fromXpub = depositKeysFromXpub(xpub, '0x00000000000000000000000000000000000000AA');
    for (const index of [0, 1, 7, 1_000]) {
      const address = fromSeed.addressAt(index);
      expect(address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(fromXpub.addressAt(index)).toBe(address);
      expect(privateKeyToAddress(fromSeed.privateKeyAt(index)!).toLowerCase()).toBe(address);
      expect(fromXpub.privateKeyAt(index)).toBeNull();
    }
    expect(new Set([0, 1, 2, 3].map((i) => fromSeed.addressAt(i))).size).toBe(4);
    expect(fromXpub.treasury).toBe('0x00000000000000000000000000000000000000aa');
    // The embedded treasury is the seed's own, never one of the deposit addresses.
    expect(fromSeed.treasury).toMatch(/^0x[0-9a-f]{40}$/);
    expect(fromSeed.treasury).not.toBe(fromSeed.addressAt(0));
  });

  it('refuses an extended private key where a public one is configured', () => {
    const xprv = HDKey.fromMasterSeed(seed).derive(DEPOSIT_BRANCH).privateExtendedKey;
    expect(() => depositKeysFromXpub(xprv, null)).toThrow(/extended public key/);
  });
});
