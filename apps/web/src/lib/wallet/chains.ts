import { defineChain, type Chain } from 'viem';

/** What the wallet layer needs to know about a network of the catalogue. */
export type WalletNetwork = {
  chainId: number;
  /** Display name, e.g. "Ethereum Testnet (local)". */
  name: string;
  explorerUrl?: string | null;
  /** The native currency's symbol; ETH when unknown. */
  nativeSymbol?: string;
};

/**
 * A viem chain for a catalogue network. The wallet talks to its own RPC endpoint for the chain,
 * so the page only needs the chain id to switch to it; no RPC URL of the platform is handed out
 * (the platform's endpoints carry keys). `rpcUrls` stays empty for that reason.
 */
export function toWalletChain(network: WalletNetwork): Chain {
  return defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: network.nativeSymbol ?? 'Ether', symbol: network.nativeSymbol ?? 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
    ...(network.explorerUrl ? { blockExplorers: { default: { name: 'Explorer', url: network.explorerUrl } } } : {}),
  });
}

/** One chain per chain id (two catalogue entries may share one), sorted for a stable config key. */
export function toWalletChains(networks: readonly WalletNetwork[]): Chain[] {
  const byId = new Map<number, Chain>();
  for (const network of networks) if (!byId.has(network.chainId)) byId.set(network.chainId, toWalletChain(network));
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
