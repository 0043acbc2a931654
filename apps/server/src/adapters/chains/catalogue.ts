import type { NetworkType } from '@connect/db';

/** A network of the seeded catalogue (spec §3 Integrate state). */
export type NetworkSeed = {
  /** Stable key: configuration names it as NETWORK_RPC_<CODE> (upper case, `-` as `_`). */
  code: string;
  name: string;
  /** Name while the RPC URL is a chain on this machine (the default local stand-ins). */
  localName?: string;
  networkType: NetworkType;
  technology: string;
  description: string;
  chainId: number;
  explorerUrl: string | null;
  rateLimit: number;
  sortOrder: number;
  /** Index into DEVCHAIN_PORTS when `npm start` runs a local chain for this network. */
  devchainSlot?: number;
};

export const NETWORK_SEEDS: readonly NetworkSeed[] = [
  {
    code: 'ethereum-testnet',
    name: 'Ethereum Testnet',
    localName: 'Ethereum Testnet (local)',
    networkType: 'testnet',
    technology: 'Ethereum',
    description: 'Ethereum test network for building and testing applications without real funds.',
    chainId: 31_337,
    explorerUrl: null,
    rateLimit: 25,
    sortOrder: 10,
    devchainSlot: 0,
  },
  {
    code: 'polygon-testnet',
    name: 'Polygon Testnet',
    localName: 'Polygon Testnet (local)',
    networkType: 'testnet',
    technology: 'Polygon',
    description: 'Polygon test network for building and testing applications without real funds.',
    chainId: 31_338,
    explorerUrl: null,
    rateLimit: 25,
    sortOrder: 20,
    devchainSlot: 1,
  },
  {
    code: 'ethereum-mainnet',
    name: 'Ethereum Mainnet',
    networkType: 'mainnet',
    technology: 'Ethereum',
    description: 'The public Ethereum network.',
    chainId: 1,
    explorerUrl: 'https://etherscan.io',
    rateLimit: 25,
    sortOrder: 30,
  },
  {
    code: 'polygon-mainnet',
    name: 'Polygon Mainnet',
    networkType: 'mainnet',
    technology: 'Polygon',
    description: 'The public Polygon PoS network.',
    chainId: 137,
    explorerUrl: 'https://polygonscan.com',
    rateLimit: 25,
    sortOrder: 40,
  },
];

/** A catalogue network as configured: the seed plus what configuration and the local chains add. */
export type ConfiguredNetwork = NetworkSeed & {
  rpcUrl: string | undefined;
  /** True when NETWORK_RPC_<CODE> set the URL (then no local chain is started for it). */
  rpcFromEnv: boolean;
  /**
   * The platform's deployer key on this network (token issue): DEPLOYER_PRIVATE_KEY_<CODE>; on a
   * local testnet without one, the installation's own key is added at start-up (platform-deployer.ts).
   */
  deployerPrivateKey: `0x${string}` | undefined;
  deployerKeyFromEnv: boolean;
  /** The deployer is the installation's key, funded from the local chain's faucet (platform-deployer.ts). */
  deployerFromFaucet?: boolean;
  /** A testnet whose RPC URL is on this machine's loopback interface: a local stand-in. */
  isLocal: boolean;
};

/** NETWORK_RPC_ETHEREUM_MAINNET for `ethereum-mainnet`. */
export const envSuffix = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '_');

export function isLoopbackUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** Completes a network once its RPC URL is known (from configuration or a started local chain). */
export function withRpcUrl(
  network: Omit<ConfiguredNetwork, 'isLocal' | 'deployerPrivateKey'> & {
    deployerPrivateKey?: `0x${string}` | undefined;
  },
  rpcUrl: string | undefined,
): ConfiguredNetwork {
  const isLocal = network.networkType === 'testnet' && isLoopbackUrl(rpcUrl);
  return {
    ...network,
    rpcUrl,
    isLocal,
    // Only a configured key here: never anvil's public keys (see platform-deployer.ts).
    deployerPrivateKey: network.deployerKeyFromEnv ? network.deployerPrivateKey : undefined,
  };
}
