import { UserRejectedRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyWalletError, WalletError, walletErrorDetail } from './errors.ts';

describe('classifyWalletError', () => {
  it('recognises a user’s rejection (EIP-1193 4001), however deeply it is wrapped', () => {
    expect(classifyWalletError({ code: 4001, message: 'User rejected the request.' })).toBe('USER_REJECTED');
    const wrapped = new Error('send failed', { cause: new UserRejectedRequestError(new Error('no')) });
    expect(classifyWalletError(wrapped)).toBe('USER_REJECTED');
  });

  it('recognises a missing wallet, an unknown chain and a revert', () => {
    expect(classifyWalletError(Object.assign(new Error('x'), { name: 'ProviderNotFoundError' }))).toBe('NO_WALLET');
    expect(classifyWalletError(new WalletError('NO_WALLET'))).toBe('NO_WALLET');
    expect(classifyWalletError({ code: 4902 })).toBe('UNKNOWN_CHAIN');
    expect(classifyWalletError({ name: 'ContractFunctionRevertedError' })).toBe('REVERTED');
    expect(classifyWalletError(new Error('boom'))).toBe('UNKNOWN');
  });
});

describe('walletErrorDetail', () => {
  it('gives what the wallet said beyond the code, and nothing when it said only the code', () => {
    expect(walletErrorDetail(new WalletError('REVERTED', { detail: 'Not the minter' }))).toBe('Not the minter');
    expect(walletErrorDetail(new WalletError('REVERTED'))).toBeUndefined();
    expect(walletErrorDetail(new Error('nonce too low'))).toBe('nonce too low');
    expect(walletErrorDetail('x')).toBeUndefined();
  });
});
