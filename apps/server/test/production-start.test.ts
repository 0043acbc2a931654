import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from './production-env.ts';
import { freePorts, runRefusedStart } from './server-process.ts';

/** Whether something listens on 127.0.0.1:port. */
const isListening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A production start with only `env`, given 45 s to be refused; whether it started local chains. */
async function startServer(env: Record<string, string>) {
  const [port, ...chainPorts] = await freePorts(3);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-production-start-'));
  const { exitCode, output } = await runRefusedStart(
    { PORT: String(port), DATA_DIR: dataDir, DEVCHAIN_PORTS: chainPorts.join(','), ...env },
    45_000,
  );
  const chainsListening = await Promise.all(chainPorts.map(isListening));
  return {
    exitCode,
    output,
    chainsStarted: existsSync(path.join(dataDir, 'chains')) || chainsListening.includes(true),
  };
}

/** Issue 27 §1: development chains never run in production, whatever the other settings say. */
describe('a production start', () => {
  it('refuses to start with the defaults, naming every missing setting, and starts no local chain', async () => {
    // The old production minimum: SECRET_KEY only. The local chains and their QNT started with it.
    const { exitCode, output, chainsStarted } = await startServer({ NODE_ENV: 'production', SECRET_KEY: 'k' });
    expect(exitCode, output).toBe(1);
    expect(output).toContain('Invalid configuration for production');
    for (const setting of ['DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL'])
      expect(output).toContain(`${setting} is required`);
    expect(output).not.toContain('Could not start the local chains');
    expect(chainsStarted).toBe(false);
  });

  it('refuses DEVCHAINS=on beside an otherwise complete production configuration', async () => {
    const { exitCode, output, chainsStarted } = await startServer({ ...PRODUCTION_ENV, DEVCHAINS: 'on' });
    expect(exitCode, output).toBe(1);
    expect(output).toContain('DEVCHAINS=on is forbidden in production');
    expect(chainsStarted).toBe(false);
  });
});
