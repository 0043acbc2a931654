import { BaseError, UserRejectedRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { classifyWalletError, WalletError, walletErrorDetail, walletMessage } from './errors.ts';

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
    // viem's errors: the short message, not the multi-line dump.
    expect(walletErrorDetail(new BaseError('Execution reverted.', { details: 'more' }))).toBe('Execution reverted.');
    expect(walletErrorDetail('x')).toBeUndefined();
  });
});

describe('walletMessage', () => {
  it('says the spec’s words (§8): no wallet, a refusal, and anything else; nothing for a closed picker', () => {
    expect(walletMessage('NO_WALLET')).toBe('Please install and activate your MetaMask!');
    expect(walletMessage('USER_REJECTED')).toBe('User denied transaction signature.');
    for (const code of ['UNKNOWN', 'REVERTED', 'UNKNOWN_CHAIN'] as const) {
      expect(walletMessage(code)).toBe('Something went wrong! please try again.');
    }
    expect(walletMessage('CANCELLED')).toBeNull();
  });

  it('is the message of a WalletError without a detail of its own', () => {
    expect(new WalletError('NO_WALLET').message).toBe('Please install and activate your MetaMask!');
    expect(new WalletError('USER_REJECTED').message).toBe('User denied transaction signature.');
    expect(new WalletError('REVERTED', { detail: 'Not the minter' }).message).toBe('Not the minter');
  });
});
