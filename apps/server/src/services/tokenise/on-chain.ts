import { encodeFunctionData, type Abi, type Hex } from 'viem';
import type { TTokenOnChain } from '@connect/shared';
import { rpcCall } from '../../adapters/chains/rpc.ts';

/** Total supply and a holder's balance, read live from the chain at one block. */
export async function readOnChain(rpcUrl: string, abi: Abi, address: Hex, holder?: string): Promise<TTokenOnChain> {
  const options = { timeoutMs: 5_000 };
  try {
    const blockHex = await rpcCall<Hex>(rpcUrl, 'eth_blockNumber', [], options);
    const read = async (functionName: string, args: unknown[]) =>
      BigInt(
        await rpcCall<Hex>(
          rpcUrl,
          'eth_call',
          [{ to: address, data: encodeFunctionData({ abi, functionName, args }) }, blockHex],
          options,
        ),
      ).toString();
    const [totalSupply, holderBalance] = await Promise.all([
      read('totalSupply', []),
      holder ? read('balanceOf', [holder]) : Promise.resolve(null),
    ]);
    return {
      totalSupply,
      holder: holder ?? null,
      holderBalance,
      blockNumber: BigInt(blockHex).toString(),
      error: null,
    };
  } catch (err) {
    return {
      totalSupply: null,
      holder: holder ?? null,
      holderBalance: null,
      blockNumber: null,
      error: `The network could not be read: ${(err as Error).message}`,
    };
  }
}
