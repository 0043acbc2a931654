import path from 'node:path';
import { startDevChains, type DevChain } from '@connect/devchain';
import type { Config } from '../../config.ts';
import { withRpcUrl } from './catalogue.ts';

export type RunningDevChains = {
  /** The configuration with the local chains' RPC URLs (and deployer keys) filled in. */
  config: Config;
  chains: { code: string; name: string; chain: DevChain }[];
  stop: () => Promise<void>;
};

/**
 * Starts a local anvil chain for every catalogue network with a devchain slot and no
 * NETWORK_RPC_<CODE> (when DEVCHAINS is on), on DEVCHAIN_PORTS, with state persisted to
 * `DATA_DIR/chains/<code>.json`, mining each transaction at once and a block every second.
 * Used by server.ts only; with NODE_ENV=production it starts nothing.
 */
export async function startConfiguredDevChains(config: Config): Promise<RunningDevChains> {
  const { devchains } = config.chains;
  // Never in production, whatever the settings say (loadConfig refuses DEVCHAINS=on there already):
  // anvil funds ten accounts whose keys everyone knows, and the local QNT follows the chains.
  const wanted =
    devchains.enabled && !config.isProduction
      ? config.chains.networks.filter((n) => n.devchainSlot !== undefined && !n.rpcFromEnv)
      : [];
  const started = await startDevChains(
    wanted.map((n) => ({
      chainId: n.chainId,
      port: devchains.ports[n.devchainSlot!] ?? 0,
      stateFile: path.join(devchains.stateDir, `${n.code}.json`),
      // Also written every second, so a hard kill loses at most a second of local history (what
      // the platform sent in it is sent again at start-up: tokenise/chain-recovery.ts).
      stateIntervalSeconds: 1,
      // A chain that outlived a killed server is found again instead of holding the port.
      pidFile: path.join(devchains.stateDir, `${n.code}.pid`),
      // A block every second even when nothing is sent, so payments' confirmations arrive on a
      // quiet chain, and each transaction still mined at once (deployments wait for no interval).
      // The cost: the state file keeps every block, about 1.7 kB each (~6 MB per hour of running).
      blockTime: 1,
      mixedMining: true,
    })),
  );
  const byCode = new Map(wanted.map((n, i) => [n.code, started[i]!]));
  const networks = config.chains.networks.map((n) => {
    const chain = byCode.get(n.code);
    return chain ? withRpcUrl(n, chain.rpcUrl) : n;
  });
  return {
    config: { ...config, chains: { ...config.chains, networks } },
    chains: wanted.map((n) => ({ code: n.code, name: n.localName ?? n.name, chain: byCode.get(n.code)! })),
    stop: async () => {
      await Promise.all(started.map((c) => c.stop()));
    },
  };
}
