import { describe, expect, it } from 'vitest';
import { bumpFees } from './fees.ts';

const GWEI = 10n ** 9n;

describe('bumpFees: a replacement pays at least 12.5 % more, and at least the market', () => {
  it('raises EIP-1559 fees by 12.5 %, rounded up', () => {
    const market = { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
    expect(bumpFees({ maxFeePerGas: 16n * GWEI + 1n, maxPriorityFeePerGas: 8n * GWEI + 1n }, market)).toEqual({
      maxFeePerGas: 18n * GWEI + 2n,
      maxPriorityFeePerGas: 9n * GWEI + 2n,
    });
  });

  it('asks what the market asks when that is more (the base fee rose past the old maximum)', () => {
    const market = { maxFeePerGas: 50n * GWEI, maxPriorityFeePerGas: 2n * GWEI };
    expect(bumpFees({ maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI }, market)).toEqual(market);
  });

  it('raises a legacy gas price the same way', () => {
    expect(bumpFees({ gasPrice: 8n * GWEI }, { gasPrice: 5n * GWEI })).toEqual({ gasPrice: 9n * GWEI });
    expect(bumpFees({ gasPrice: 8n * GWEI }, { gasPrice: 20n * GWEI })).toEqual({ gasPrice: 20n * GWEI });
  });

  it('does not bump fees already three times the market: they are not why it waits', () => {
    const market = { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI };
    expect(bumpFees({ maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: GWEI }, market)).toBeUndefined();
    expect(bumpFees({ gasPrice: 30n * GWEI }, { gasPrice: 10n * GWEI })).toBeUndefined();
  });
});
