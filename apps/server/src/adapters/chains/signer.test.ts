import {
  keccak256 as viemKeccak256,
  parseTransaction,
  recoverTransactionAddress,
  type Hex,
  type TransactionSerializable,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { deployData } from '@connect/contracts';
import { DEPLOYER_PRIVATE_KEY } from '@connect/devchain';
import { createSigner, keccak256 } from './signer.ts';

const data = deployData('QRC20', 'flex', {
  name: 'Signer Token',
  symbol: 'SGN',
  decimals: 18,
  initialSupply: 10n ** 24n,
  supplyHolder: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  minter: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  maxSupply: 10n ** 25n,
  remintable: true,
});

const transactions: Record<string, TransactionSerializable> = {
  eip1559: {
    type: 'eip1559',
    chainId: 31_337,
    nonce: 7,
    gas: 2_345_678n,
    data,
    maxFeePerGas: 3_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  },
  legacy: { type: 'legacy', chainId: 1_337, nonce: 0, gas: 21_000n, data, gasPrice: 1_000_000_000n },
};

describe('the signer', () => {
  it('hashes as viem does, for empty, short and long data', () => {
    for (const input of ['0x', '0x01', data] as Hex[]) expect(keccak256(input)).toBe(viemKeccak256(input));
  });

  it.each(Object.keys(transactions))('signs a %s transaction byte for byte as viem’s account does', async (kind) => {
    const tx = transactions[kind]!;
    const viemAccount = privateKeyToAccount(DEPLOYER_PRIVATE_KEY);
    const signer = createSigner(DEPLOYER_PRIVATE_KEY);
    const expected = await viemAccount.signTransaction(tx);
    const { raw, hash } = await signer.signTransaction(tx);
    expect(signer.address).toBe(viemAccount.address);
    expect(raw).toBe(expected);
    expect(hash).toBe(viemKeccak256(expected));
    expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(viemAccount.address);
    expect(parseTransaction(raw).nonce).toBe(tx.nonce);
  });
});
