import { startDevChain } from '@connect/devchain';

export type TestChain = { rpcUrl: string; chainId: number; port: number; stop: () => Promise<void> };

let nextChainId = 41_000;

/**
 * A local anvil chain on a free loopback port with no state file, for one test file.
 * Without an argument each call gets a distinct chain id (41000, 41001, ...).
 * Call stop() in afterAll.
 */
export async function startTestChain(chainId?: number): Promise<TestChain> {
  const chain = await startDevChain({ chainId: chainId ?? nextChainId++ });
  return { rpcUrl: chain.rpcUrl, chainId: chain.chainId, port: chain.port, stop: () => chain.stop() };
}
