import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from './production-env.ts';
import { freePorts, ROOT } from './server-process.ts';

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

/**
 * `node --import tsx apps/server/src/server.ts` with only `env` (none of this process's settings),
 * until it exits or 45 s have passed (then its whole process group is killed: a server that
 * started is a failure here).
 */
async function startServer(env: Record<string, string>) {
  const [port, ...chainPorts] = await freePorts(3);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'connect-production-start-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEVCHAIN_PORTS: chainPorts.join(','),
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(import.meta.dirname, 'fixtures/web-dist'),
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      // Still running: it started (and perhaps its local chains). Stop everything it began.
      process.kill(-child.pid!, 'SIGKILL');
      resolve(null);
    }, 45_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
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
