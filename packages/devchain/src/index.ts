import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

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

/**
 * The ten accounts anvil funds and unlocks, derived from DEV_MNEMONIC (m/44'/60'/0'/0/i) in order.
 * Public knowledge (anyone may import them into a wallet): local use only.
 */
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
  {
    address: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
    privateKey: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  },
  {
    address: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    privateKey: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
  },
  {
    address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9',
    privateKey: '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e',
  },
  {
    address: '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955',
    privateKey: '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356',
  },
  {
    address: '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
    privateKey: '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97',
  },
  {
    address: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    privateKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
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
  /**
   * With blockTime: also mine each transaction at once (anvil `--mixed-mining`), so a quiet chain
   * still makes a block every blockTime seconds (confirmations arrive) while a transaction waits
   * for no interval. Ignored without blockTime (automine already mines each transaction).
   */
  mixedMining?: boolean;
  /**
   * With a state file, also dump the state every N seconds while running (default 1): a hard kill
   * (SIGKILL, a crash, a power cut) loses at most that much of the chain's history.
   */
  stateIntervalSeconds?: number;
  /** How long to wait for the chain to answer `eth_chainId`; default 30 s. */
  startTimeoutMs?: number;
  /**
   * Remember the running chain in this file (its pid, port and chain id), so that a chain which
   * outlived its server (the server was killed, the chain was not) is found again by the next
   * start instead of holding the port: reattached when it is this chain, else stopped (SIGTERM,
   * so it saves its state) and started afresh. See findLeftOverChain.
   */
  pidFile?: string;
}

export interface DevChain {
  rpcUrl: string;
  chainId: number;
  port: number;
  host: string;
  stateFile: string | undefined;
  /** The anvil process's id. */
  pid: number;
  /** True when this chain was left running by an earlier process and found again through its pid file. */
  reattached: boolean;
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
  if (options.pidFile) {
    const mining = { blockTime, mixedMining: options.mixedMining };
    const leftOver = await findLeftOverChain(options.pidFile, { chainId, port, host, stateFile, ...mining });
    if (leftOver) return leftOver;
  }
  if (stateFile) await keepStateLoadable(stateFile);

  const args = ['--host', host, '--port', String(port), '--chain-id', String(chainId)];
  args.push('--mnemonic', DEV_MNEMONIC);
  if (stateFile) args.push('--state', stateFile);
  if (stateFile) args.push('--state-interval', String(options.stateIntervalSeconds ?? 1));
  if (blockTime !== undefined) args.push('--block-time', String(blockTime));
  if (blockTime !== undefined && options.mixedMining) args.push('--mixed-mining');

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
  const { pidFile } = options;
  if (pidFile) {
    const record: PidRecord = { pid: child.pid!, port: resolvedPort, chainId, host, stateFile: stateFile ?? null };
    await writeAtomically(pidFile, `${JSON.stringify(record)}\n`);
  }
  return {
    rpcUrl: `http://${urlHost(host)}:${resolvedPort}`,
    chainId,
    port: resolvedPort,
    host,
    stateFile,
    pid: child.pid!,
    reattached: false,
    get running() {
      return !exited();
    },
    stop() {
      stopping ??= (async () => {
        process.off('exit', killOnExit);
        if (!exited()) {
          child.kill('SIGTERM'); // anvil dumps --state on SIGTERM/SIGINT
          if (!(await waitForExit(child, 15_000))) {
            child.kill('SIGKILL');
            await waitForExit(child, 5_000);
          }
        }
        if (pidFile) await rm(pidFile, { force: true });
      })();
      return stopping;
    },
  };
}

/** What a pid file holds: enough to tell whether a running process is this chain. */
type PidRecord = { pid: number; port: number; chainId: number; host: string; stateFile: string | null };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user holds the pid, so it is not a chain this user started.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process (Linux /proc, else ps), or null when it cannot be read. */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    try {
      const line = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      return line ? line.split(/\s+/) : null;
    } catch {
      return null;
    }
  }
}

const argAfter = (args: string[], flag: string) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};

/** Whether a chain's command line has the expected mining flags (a left-over chain started before they changed has not). */
function minesAsExpected(args: string[], expected: Pick<DevChainOptions, 'blockTime' | 'mixedMining'>): boolean {
  const { blockTime } = expected;
  const mixed = blockTime !== undefined && expected.mixedMining === true;
  return (
    argAfter(args, '--block-time') === (blockTime === undefined ? undefined : String(blockTime)) &&
    args.includes('--mixed-mining') === mixed
  );
}

async function waitForDeath(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Ends a process this module did not spawn (or no longer holds): SIGTERM so anvil saves its state, then SIGKILL. */
async function terminate(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  if (await waitForDeath(pid, 15_000)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  await waitForDeath(pid, 5_000);
}

/**
 * A chain that an earlier process started with this pid file and left running (its server was
 * killed while the chain was not). When the recorded process is alive and is anvil with this
 * chain's state file, it is reattached if it answers this chain id on the expected port and mines
 * as expected (the same block time and mixed mining), and otherwise (another port, chain id or
 * mining, or no answer: unsure) stopped with SIGTERM — anvil saves its state as it exits — so the
 * caller starts it afresh on the freed port. A pid the system gave to some other program is never
 * signalled. Answers the reattached chain, or null.
 */
export async function findLeftOverChain(
  pidFile: string,
  expected: {
    chainId: number;
    port: number;
    host: string;
    stateFile: string | undefined;
  } & Pick<DevChainOptions, 'blockTime' | 'mixedMining'>,
): Promise<DevChain | null> {
  let record: PidRecord;
  try {
    record = JSON.parse(await readFile(pidFile, 'utf8')) as PidRecord;
  } catch {
    return null; // none, or unreadable: nothing to find
  }
  const args =
    Number.isSafeInteger(record.pid) && record.pid > 0 && isAlive(record.pid) ? commandLine(record.pid) : null;
  const isOurs =
    args !== null &&
    basename(args[0] ?? '').startsWith('anvil') &&
    argAfter(args, '--state') === (expected.stateFile ?? undefined) &&
    argAfter(args, '--chain-id') !== undefined;
  if (!isOurs) {
    await rm(pidFile, { force: true });
    return null;
  }
  const port = expected.port || record.port;
  const rpcUrl = `http://${urlHost(expected.host)}:${port}`;
  const matches =
    argAfter(args, '--chain-id') === String(expected.chainId) &&
    [String(record.port), '0'].includes(argAfter(args, '--port') ?? '') &&
    record.port === port &&
    minesAsExpected(args, expected) &&
    (await answersChainId(rpcUrl)) === expected.chainId;
  if (!matches) {
    await terminate(record.pid);
    await rm(pidFile, { force: true });
    return null;
  }
  const { pid } = record;
  // This process is now the chain's owner: stop it on exit as if it had started it.
  const killOnExit = () => {
    if (isAlive(pid)) process.kill(pid, 'SIGTERM');
  };
  process.once('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  return {
    rpcUrl,
    chainId: expected.chainId,
    port,
    host: expected.host,
    stateFile: expected.stateFile,
    pid,
    reattached: true,
    get running() {
      return isAlive(pid);
    },
    stop() {
      stopping ??= (async () => {
        process.off('exit', killOnExit);
        await terminate(pid);
        await rm(pidFile, { force: true });
      })();
      return stopping;
    },
  };
}

/**
 * anvil writes its state file in place (truncate, then write), so a kill during a write leaves a
 * file anvil refuses to load ("failed to parse json file") and the chain could not start again.
 * Before each start the state file is checked: a good one is copied to `<file>.bak`; a broken one
 * is moved aside (`<file>.broken`) and the last good copy put in its place, so the chain starts
 * from the state of its previous start at worst (the platform sends its lost transactions again).
 */
async function keepStateLoadable(stateFile: string): Promise<void> {
  const backup = `${stateFile}.bak`;
  const parses = async (file: string) => {
    try {
      JSON.parse(await readFile(file, 'utf8'));
      return true;
    } catch {
      return false;
    }
  };
  if (!existsSync(stateFile)) return;
  if (await parses(stateFile)) {
    await copyFile(stateFile, `${backup}.tmp`);
    await rename(`${backup}.tmp`, backup);
    return;
  }
  await rename(stateFile, `${stateFile}.broken`);
  if (existsSync(backup) && (await parses(backup))) await copyFile(backup, stateFile);
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
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
