import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Local EVM chains for development and tests: the official anvil build from npm
 * (`@foundry-rs/anvil`, binary from its platform package), one process per chain on a loopback
 * port, optionally persisting its state to a file so a restart keeps contracts and balances.
 */

/** anvil's default mnemonic; every chain started here funds its first ten accounts with 10 000 ETH. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  address: `0x${string}`;
  privateKey: `0x${string}`;
}

/** The first accounts derived from DEV_MNEMONIC (m/44'/60'/0'/0/i). Public knowledge: local use only. */
export const DEV_ACCOUNTS: readonly DevAccount[] = [
  {
    address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  },
  {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  },
  {
    address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    privateKey: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  },
  {
    address: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    privateKey: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  },
];

/** Account 0: the platform's contract deployer on local chains. */
export const DEPLOYER_PRIVATE_KEY = DEV_ACCOUNTS[0]!.privateKey;
export const DEPLOYER_ADDRESS = DEV_ACCOUNTS[0]!.address;
/** Account 1: a user's wallet in end-to-end tests (e.g. the injected EIP-1193 wallet). */
export const TEST_WALLET_PRIVATE_KEY = DEV_ACCOUNTS[1]!.privateKey;
export const TEST_WALLET_ADDRESS = DEV_ACCOUNTS[1]!.address;
/** Account 2: a second user wallet for tests that need two parties. */
export const SECOND_WALLET_PRIVATE_KEY = DEV_ACCOUNTS[2]!.privateKey;
export const SECOND_WALLET_ADDRESS = DEV_ACCOUNTS[2]!.address;

export interface DevChainOptions {
  chainId: number;
  /** 0 or undefined: a free port chosen by the OS. */
  port?: number;
  /** Loopback by default. */
  host?: string;
  /** Load state from this file if it exists and dump it on stop (anvil `--state`). */
  stateFile?: string;
  /** Seconds between blocks; undefined: a block per transaction (automine). */
  blockTime?: number;
  /** Also dump state every N seconds while running (guards against a hard kill). */
  stateIntervalSeconds?: number;
  /** How long to wait for the chain to answer `eth_chainId`; default 30 s. */
  startTimeoutMs?: number;
}

export interface DevChain {
  rpcUrl: string;
  chainId: number;
  port: number;
  host: string;
  stateFile: string | undefined;
  /** True while the anvil process runs. */
  readonly running: boolean;
  /** Ends the process (SIGTERM, so anvil dumps its state) and waits for it to exit. */
  stop(): Promise<void>;
}

export class DevChainError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(output ? `${message}\n--- anvil output ---\n${output}` : message);
    this.name = 'DevChainError';
  }
}

const PLATFORM_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

let cachedBinary: string | undefined;

/** Path of the anvil executable: ANVIL_BIN if set, else the npm platform package's binary. */
export function anvilBinary(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  if (cachedBinary) return cachedBinary;
  const arch = PLATFORM_ARCH[process.arch];
  const pkg = arch ? `@foundry-rs/anvil-${process.platform}-${arch}` : undefined;
  if (!pkg) throw new DevChainError(`anvil has no build for ${process.platform}/${process.arch}`, '');
  // The platform package is an optional dependency of @foundry-rs/anvil: resolve it from there.
  const require = createRequire(import.meta.url);
  const wrapper = require.resolve('@foundry-rs/anvil/package.json');
  let pkgJson: string;
  try {
    pkgJson = createRequire(wrapper).resolve(`${pkg}/package.json`);
  } catch {
    throw new DevChainError(`${pkg} is not installed (run npm install; optional dependencies must not be omitted)`, '');
  }
  const binary = join(dirname(pkgJson), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(binary)) throw new DevChainError(`anvil binary missing at ${binary}`, '');
  cachedBinary = binary;
  return binary;
}

const OUTPUT_LIMIT = 8_000;
const LISTENING = /Listening on (\S+):(\d+)/;

async function answersChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { result?: string };
    return typeof body.result === 'string' ? Number.parseInt(body.result, 16) : undefined;
  } catch {
    return undefined;
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** Starts one anvil chain and resolves once it answers `eth_chainId` with the expected id. */
export async function startDevChain(options: DevChainOptions): Promise<DevChain> {
  const { chainId, port = 0, host = '127.0.0.1', stateFile, blockTime } = options;
  if (!Number.isSafeInteger(chainId) || chainId <= 0) {
    throw new DevChainError(`invalid chain id ${String(chainId)}`, '');
  }
  if (stateFile) await mkdir(dirname(stateFile), { recursive: true });

  const args = ['--host', host, '--port', String(port), '--chain-id', String(chainId)];
  args.push('--mnemonic', DEV_MNEMONIC);
  if (stateFile) args.push('--state', stateFile);
  if (stateFile && options.stateIntervalSeconds) {
    args.push('--state-interval', String(options.stateIntervalSeconds));
  }
  if (blockTime !== undefined) args.push('--block-time', String(blockTime));

  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let boundPort: number | undefined;
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    if (boundPort === undefined) {
      const m = LISTENING.exec(output);
      if (m) boundPort = Number(m[2]);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });

  // Never leave an orphaned chain behind if this process exits without calling stop().
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', killOnExit);

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  try {
    for (;;) {
      if (spawnError) throw new DevChainError(`anvil could not start: ${spawnError.message}`, output);
      if (exited()) throw new DevChainError(`anvil exited during start-up (code ${child.exitCode})`, output);
      if (Date.now() > deadline) throw new DevChainError('anvil did not answer in time', output);
      if (boundPort !== undefined) {
        const answered = await answersChainId(`http://${urlHost(host)}:${boundPort}`);
        if (answered === chainId) break;
        if (answered !== undefined) {
          throw new DevChainError(`port ${boundPort} answers chain id ${answered}, expected ${chainId}`, output);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (err) {
    process.off('exit', killOnExit);
    child.kill('SIGKILL');
    await waitForExit(child, 5_000);
    throw err;
  }

  // Keep draining the pipes so anvil never blocks on a full buffer; remember only the tail.
  let stopping: Promise<void> | undefined;
  const resolvedPort = boundPort!;
  return {
    rpcUrl: `http://${urlHost(host)}:${resolvedPort}`,
    chainId,
    port: resolvedPort,
    host,
    stateFile,
    get running() {
      return !exited();
    },
    stop() {
      stopping ??= (async () => {
        process.off('exit', killOnExit);
        if (exited()) return;
        child.kill('SIGTERM'); // anvil dumps --state on SIGTERM/SIGINT
        if (await waitForExit(child, 15_000)) return;
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      })();
      return stopping;
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts several chains in parallel; if one fails the others are stopped before rethrowing. */
export async function startDevChains(options: readonly DevChainOptions[]): Promise<DevChain[]> {
  const results = await Promise.allSettled(options.map((o) => startDevChain(o)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (failed) {
    await stopDevChains(started);
    throw failed.reason;
  }
  return started;
}

export async function stopDevChains(chains: readonly DevChain[]): Promise<void> {
  await Promise.all(chains.map((c) => c.stop()));
}
