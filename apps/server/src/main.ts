import { DEV_MNEMONIC } from '@connect/devchain';
import type { DbHandle } from '@connect/db';
import { startConfiguredDevChains } from './adapters/chains/devchains.ts';
import { ensureLocalQntToken } from './adapters/chains/qnt-token.ts';
import { buildApp } from './app.ts';
import { ensureAdministrator } from './bootstrap.ts';
import type { Config } from './config.ts';
import { SealedDataError } from './sealed-data.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The server after its configuration was checked (server.ts): the local chains, the app on the
 * database server.ts began opening, the administrator, then it listens until SIGTERM or SIGINT.
 */
export async function runServer(loaded: Config, openingDb: Promise<DbHandle>): Promise<void> {
  // Local chains first (never in production: devchains.ts): the catalogue records their URLs when the app is built.
  let devchains: Awaited<ReturnType<typeof startConfiguredDevChains>>;
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
  let qntToken: string | undefined;
  if (localQnt) {
    try {
      qntToken = await ensureLocalQntToken(localQnt.chain.rpcUrl);
    } catch (error) {
      process.stderr.write(`Could not deploy the local QNT token (QNT payments are off):\n${String(error)}\n`);
    }
  }
  const config = qntToken
    ? { ...devchains.config, qnt: { ...devchains.config.qnt, tokenAddress: qntToken.toLowerCase() } }
    : devchains.config;
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, openingDb });
  } catch (error) {
    await devchains.stop();
    // A refusal that explains itself (a SECRET_KEY that no longer opens the sealed data) is printed
    // as written, without a stack trace to dig it out of.
    if (error instanceof SealedDataError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  await ensureAdministrator(app.deps, print);
  if (devchains.chains.length) {
    print('');
    print(`  Local chains (anvil; state in ${config.chains.devchains.stateDir}):`);
    for (const { name, chain } of devchains.chains) {
      const found = chain.reattached ? ' (left running by an earlier server: reattached)' : '';
      print(`    ${name.padEnd(26)} chain id ${String(chain.chainId).padEnd(7)} ${chain.rpcUrl}${found}`);
    }
    if (qntToken) print(`    QNT token (local): ${qntToken}`);
    print(`  Funded accounts: mnemonic "${DEV_MNEMONIC}"`);
    print('');
  }

  let closing = false;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // A request that never ends must not keep the process alive forever.
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, 25_000);
    timer.unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests, then onClose closes the database
      await devchains.stop(); // anvil writes its state file as it exits
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.deps.chains.monitor.start();
}
