import { describe, expect, it } from 'vitest';
import { BlockedAddressError, isPublicAddress, resolveAllowed, type Resolver } from './address-policy.ts';

/** Only classification and resolution are tested here: nothing connects to the addresses named. */
describe('address policy for user-entered RPC URLs', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '100.64.0.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fd00:ec2::254', // AWS IPv6 metadata (ULA)
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    '::127.0.0.1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '192.169.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  const fixed =
    (answers: Record<string, string[]>): Resolver =>
    async (hostname) =>
      (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('checks IP literals without resolving them, brackets and all', async () => {
    const never: Resolver = () => Promise.reject(new Error('resolved a literal'));
    await expect(resolveAllowed('[::1]', { allowPrivate: false, resolve: never })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    await expect(resolveAllowed('127.0.0.1', { allowPrivate: false, resolve: never })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    expect(await resolveAllowed('8.8.8.8', { allowPrivate: false, resolve: never })).toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    expect(await resolveAllowed('[::1]', { allowPrivate: true, resolve: never })).toEqual({
      address: '::1',
      family: 6,
    });
  });

  it('refuses a name when any of its addresses is private, and returns the checked address otherwise', async () => {
    const resolve = fixed({
      'mixed.example': ['8.8.8.8', '10.0.0.5'],
      'public.example': ['8.8.4.4', '8.8.8.8'],
      'metadata.example': ['169.254.169.254'],
    });
    await expect(resolveAllowed('mixed.example', { allowPrivate: false, resolve })).rejects.toMatchObject({
      host: 'mixed.example',
      address: '10.0.0.5',
    });
    await expect(resolveAllowed('metadata.example', { allowPrivate: false, resolve })).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    expect(await resolveAllowed('public.example', { allowPrivate: false, resolve })).toEqual({
      address: '8.8.4.4',
      family: 4,
    });
    expect(await resolveAllowed('metadata.example', { allowPrivate: true, resolve })).toEqual({
      address: '169.254.169.254',
      family: 4,
    });
    await expect(resolveAllowed('nothing.example', { allowPrivate: true, resolve })).rejects.toThrow('did not resolve');
  });

  it('refuses localhost through the system resolver', async () => {
    await expect(resolveAllowed('localhost', { allowPrivate: false })).rejects.toBeInstanceOf(BlockedAddressError);
  });
});
