import type { Hex } from 'viem';
import type { Fees, RpcCaller } from './types.ts';

/** What a node takes when no priority fee is suggested: 1 gwei. */
const DEFAULT_PRIORITY_FEE = 1_000_000_000n;

/**
 * Fees for a transaction sent now: EIP-1559 where the chain has a base fee (twice the latest base
 * fee plus the suggested tip, so a few full blocks do not strand it), else the node's gas price.
 */
export async function marketFees(call: RpcCaller): Promise<Fees> {
  const [block, priority] = await Promise.all([
    call<{ baseFeePerGas?: Hex | null }>('eth_getBlockByNumber', ['latest', false]),
    call<Hex>('eth_maxPriorityFeePerGas', []).then(BigInt, () => DEFAULT_PRIORITY_FEE),
  ]);
  return block?.baseFeePerGas
    ? { maxFeePerGas: BigInt(block.baseFeePerGas) * 2n + priority, maxPriorityFeePerGas: priority }
    : { gasPrice: BigInt(await call<Hex>('eth_gasPrice', [])) };
}

/** +12.5 %, rounded up: what nodes require of a replacement (geth asks 10 %, others 12.5 %). */
const raised = (value: bigint) => value + (value + 7n) / 8n;

/** Fees this many times the market's are not why a transaction waits: it is not bumped. */
const MAX_OVER_MARKET = 3n;

/**
 * A transaction that has waited too long stays in the pool while its fees are below what blocks
 * take. The replacement's fees: each raised by 12.5 % and at least what the market asks now;
 * undefined when its fees are already MAX_OVER_MARKET times the market's (no bump).
 */
export function bumpFees(old: Fees, market: Fees): Fees | undefined {
  if ('gasPrice' in old) {
    const now = 'gasPrice' in market ? market.gasPrice : market.maxFeePerGas;
    if (old.gasPrice >= now * MAX_OVER_MARKET) return undefined;
    const gasPrice = raised(old.gasPrice);
    return { gasPrice: gasPrice > now ? gasPrice : now };
  }
  const now = 'gasPrice' in market ? { maxFeePerGas: market.gasPrice, maxPriorityFeePerGas: market.gasPrice } : market;
  if (old.maxFeePerGas >= now.maxFeePerGas * MAX_OVER_MARKET) return undefined;
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const maxPriorityFeePerGas = max(raised(old.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
  return {
    maxPriorityFeePerGas,
    maxFeePerGas: max(max(raised(old.maxFeePerGas), now.maxFeePerGas), maxPriorityFeePerGas),
  };
}
