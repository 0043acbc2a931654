import { DEV_MNEMONIC } from '@connect/devchain';
import type { DbHandle } from '@connect/db';
import { buildApp } from './app.ts';
import { ensureAdministrator } from './bootstrap.ts';
import type { LocalChains } from './local-chains.ts';
import { SealedSecretError } from './lib/secret-box.ts';
import { SealedDataError } from './sealed-data.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The server after its configuration was checked (entry.ts): the app on the database and the
 * local chains entry.ts began starting, the administrator, then it listens until SIGTERM or SIGINT.
 */
export async function runServer(openingDb: Promise<DbHandle>, startingChains: Promise<LocalChains>): Promise<void> {
  const devchains = await startingChains;
  const { config, qntToken } = devchains;
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, openingDb });
  } catch (error) {
    await devchains.stop();
    // A refusal that explains itself (a SECRET_KEY that no longer opens the sealed data) is printed
    // as written, without a stack trace to dig it out of: the start's check (SealedDataError), or a
    // value another node sealed with its own key while this one started (SealedSecretError).
    if (error instanceof SealedDataError || error instanceof SealedSecretError) {
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
