import { startConfiguredDevChains, type RunningDevChains } from './adapters/chains/devchains.ts';
import { ensureLocalQntToken } from './adapters/chains/qnt-token.ts';
import type { Config } from './config.ts';

/** The local chains a start runs, with the configuration that names them (and the local QNT token). */
export type LocalChains = RunningDevChains & { qntToken?: string };

/**
 * The local chains (never in production: devchains.ts), started by entry.ts while the rest of the
 * server loads: anvil boots in its own process meanwhile (issue 30). The catalogue records their
 * URLs when the app is built. A chain that cannot start ends the process with the reason.
 */
export async function startLocalChains(loaded: Config): Promise<LocalChains> {
  let devchains: RunningDevChains;
  try {
    devchains = await startConfiguredDevChains(loaded);
  } catch (error) {
    process.stderr.write(
      `Could not start the local chains (DEVCHAIN_PORTS chooses their ports, DEVCHAINS=0 turns them off):\n${String(error)}\n`,
    );
    process.exit(1);
  }
  // QNT payments on a local chain without QNT_TOKEN_ADDRESS: the local QNT token, deployed on its
  // first start (the catalogue records it when the app is built).
  const localQnt = devchains.config.qnt.tokenAddress
    ? undefined
    : devchains.chains.find((c) => c.code === devchains.config.qnt.network);
  if (!localQnt) return devchains;
  let qntToken: string;
  try {
    qntToken = await ensureLocalQntToken(localQnt.chain.rpcUrl);
  } catch (error) {
    process.stderr.write(`Could not deploy the local QNT token (QNT payments are off):\n${String(error)}\n`);
    return devchains;
  }
  const config = { ...devchains.config, qnt: { ...devchains.config.qnt, tokenAddress: qntToken.toLowerCase() } };
  return { ...devchains, config, qntToken };
}
