import type { Chain } from 'viem';
import { createConfig, createStorage, injected, unstable_connector, type Config, type Transport } from 'wagmi';

/**
 * The wagmi configuration of the wallet routes: the injected connector (EIP-1193
 * `window.ethereum`) plus one connector per wallet announced through EIP-6963
 * (`multiInjectedProviderDiscovery`), and the catalogue's chains. Every chain's transport is the
 * connected wallet itself: the page never needs an RPC URL of its own.
 */
export function createWalletConfig(chains: readonly Chain[]): Config {
  if (chains.length === 0) throw new Error('The wallet needs at least one chain');
  const transports: Record<number, Transport> = {};
  for (const chain of chains) transports[chain.id] = unstable_connector(injected);
  return createConfig({
    chains: chains as unknown as readonly [Chain, ...Chain[]],
    connectors: [injected({ shimDisconnect: true })],
    multiInjectedProviderDiscovery: true,
    transports,
    storage: createStorage({
      key: 'connect.wallet',
      storage: typeof window === 'undefined' ? undefined : window.localStorage,
    }),
    ssr: false,
  });
}

const configs = new Map<string, Config>();

/** One configuration per set of chains, kept for the page's life (wagmi holds its state in it). */
export function walletConfigFor(chains: readonly Chain[]): Config {
  const key = chains.map((chain) => chain.id).join(',');
  let config = configs.get(key);
  if (!config) {
    config = createWalletConfig(chains);
    configs.set(key, config);
  }
  return config;
}
