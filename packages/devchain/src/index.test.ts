import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEPLOYER_ADDRESS,
  TEST_WALLET_ADDRESS,
  startDevChain,
  startDevChains,
  type DevChain,
  type DevChainOptions,
} from './index.ts';

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** The receipt of a transaction, polled for up to a second (or `ms`). */
function receiptOf(url: string, hash: string, ms = 1_000): Promise<{ status: string; blockNumber: string }> {
  return vi.waitFor(
    async () => {
      const receipt = await rpc<{ status: string; blockNumber: string } | null>(url, 'eth_getTransactionReceipt', [
        hash,
      ]);
      if (!receipt) throw new Error(`no receipt for ${hash}`);
      return receipt;
    },
    { timeout: ms, interval: 10 },
  );
}

const started: DevChain[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

describe('startDevChain', () => {
  it('starts on a free port and answers its chain id', async () => {
    const chain = await startDevChain({ chainId: 31_377 });
    started.push(chain);
    expect(chain.port).toBeGreaterThan(0);
    expect(chain.rpcUrl).toBe(`http://127.0.0.1:${chain.port}`);
    expect(await rpc<string>(chain.rpcUrl, 'eth_chainId')).toBe('0x7a91');
    // The well-known accounts are funded.
    const balance = BigInt(await rpc<string>(chain.rpcUrl, 'eth_getBalance', [DEPLOYER_ADDRESS, 'latest']));
    expect(balance).toBe(10_000n * 10n ** 18n);
  });

  it('stops cleanly: the process exits and the port no longer answers', async () => {
    const chain = await startDevChain({ chainId: 31_378 });
    expect(chain.running).toBe(true);
    await chain.stop();
    expect(chain.running).toBe(false);
    await expect(rpc(chain.rpcUrl, 'eth_chainId')).rejects.toThrow();
    await chain.stop(); // idempotent
  });

  it('keeps blocks and balances across a restart with a state file', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'devchain-')), 'nested', 'chain.json');
    const first = await startDevChain({ chainId: 31_379, stateFile });
    const value = '0xde0b6b3a7640000'; // 1 ETH
    const hash = await rpc<string>(first.rpcUrl, 'eth_sendTransaction', [
      { from: DEPLOYER_ADDRESS, to: TEST_WALLET_ADDRESS, value },
    ]);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    // anvil answers the hash before its miner has sealed the block: stop only once it is mined,
    // or the state dumped on stop may not hold it yet.
    await receiptOf(first.rpcUrl, hash, 2_000);
    await first.stop();
    expect(existsSync(stateFile)).toBe(true);

    const second = await startDevChain({ chainId: 31_379, stateFile });
    started.push(second);
    expect(BigInt(await rpc<string>(second.rpcUrl, 'eth_blockNumber'))).toBe(1n);
    const balance = BigInt(await rpc<string>(second.rpcUrl, 'eth_getBalance', [TEST_WALLET_ADDRESS, 'latest']));
    expect(balance).toBe(10_001n * 10n ** 18n);
    const receipt = await rpc<{ status: string }>(second.rpcUrl, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
  });

  it('starts several chains on distinct free ports', async () => {
    const chains = await startDevChains([{ chainId: 31_380 }, { chainId: 31_381 }]);
    started.push(...chains);
    expect(chains[0]!.port).not.toBe(chains[1]!.port);
    expect(await rpc<string>(chains[0]!.rpcUrl, 'eth_chainId')).toBe('0x7a94');
    expect(await rpc<string>(chains[1]!.rpcUrl, 'eth_chainId')).toBe('0x7a95');
  });

  it('fails clearly when the port is taken, and stops the chains it had started', async () => {
    const chain = await startDevChain({ chainId: 31_382 });
    started.push(chain);
    await expect(startDevChains([{ chainId: 31_383 }, { chainId: 31_384, port: chain.port }])).rejects.toThrow(
      /anvil exited during start-up/,
    );
  });

  it('mixed mining: a quiet chain makes a block every interval, and a transaction is still mined at once', async () => {
    const chain = await startDevChain({ chainId: 31_385, blockTime: 1, mixedMining: true });
    started.push(chain);
    const blockNumber = async () => BigInt(await rpc<string>(chain.rpcUrl, 'eth_blockNumber'));
    const quiet = await blockNumber();
    // Nothing sent, blocks made: two within two and a half seconds.
    await expect.poll(blockNumber, { timeout: 2_500, interval: 100 }).toBeGreaterThanOrEqual(quiet + 2n);

    // Three transfers sent back to back (well within one interval): each gets its own block at
    // once. Interval mining alone would have put them in one or two blocks, a second later.
    const sentAt = Date.now();
    const hashes: string[] = [];
    for (const value of ['0x1', '0x2', '0x3']) {
      hashes.push(
        await rpc<string>(chain.rpcUrl, 'eth_sendTransaction', [
          { from: DEPLOYER_ADDRESS, to: TEST_WALLET_ADDRESS, value },
        ]),
      );
    }
    const receipts = [];
    for (const hash of hashes) receipts.push(await receiptOf(chain.rpcUrl, hash));
    expect(Date.now() - sentAt).toBeLessThan(500); // typically ~20 ms
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(3);
    expect(receipts.every((r) => r.status === '0x1')).toBe(true);
  });

  it('rejects an invalid chain id', async () => {
    await expect(startDevChain({ chainId: 0 })).rejects.toThrow(/invalid chain id/);
  });
});

/**
 * Starts a chain with a pid file in another process, which is then killed (SIGKILL) while the
 * chain goes on running: what a killed server leaves behind.
 */
async function leaveChainRunning(options: DevChainOptions): Promise<{ pid: number; port: number }> {
  const script = `
    import { startDevChain } from ${JSON.stringify(join(import.meta.dirname, 'index.ts'))};
    const chain = await startDevChain(${JSON.stringify(options)});
    process.stdout.write(JSON.stringify({ pid: chain.pid, port: chain.port }) + '\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the helper process exited (${code})`)));
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(line) as { pid: number; port: number };
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a chain that outlived its server (pid file)', () => {
  const paths = () => {
    const dir = mkdtempSync(join(tmpdir(), 'devchain-pid-'));
    return { stateFile: join(dir, 'chain.json'), pidFile: join(dir, 'chain.pid') };
  };

  it('is reattached when it is this chain on the expected port; stop() ends it and removes the pid file', async () => {
    const { stateFile, pidFile } = paths();
    const left = await leaveChainRunning({ chainId: 31_390, stateFile, pidFile });
    expect(isAlive(left.pid)).toBe(true);
    const hash = await rpc<string>(`http://127.0.0.1:${left.port}`, 'eth_sendTransaction', [
      { from: DEPLOYER_ADDRESS, to: TEST_WALLET_ADDRESS, value: '0x1' },
    ]);

    const chain = await startDevChain({ chainId: 31_390, port: left.port, stateFile, pidFile });
    started.push(chain);
    expect(chain).toMatchObject({ reattached: true, pid: left.pid, port: left.port });
    // The very same chain: what was sent to it is there, nothing was reloaded. Anvil answers the
    // send before it mines the block, which on a busy machine (CI) came after this read once.
    expect(await receiptOf(chain.rpcUrl, hash, 10_000)).toMatchObject({ status: '0x1' });
    await chain.stop();
    expect(isAlive(left.pid)).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('is stopped with SIGTERM (saving its state) and started again when it runs on another port', async () => {
    const { stateFile, pidFile } = paths();
    const left = await leaveChainRunning({ chainId: 31_391, stateFile, pidFile });
    const hash = await rpc<string>(`http://127.0.0.1:${left.port}`, 'eth_sendTransaction', [
      { from: DEPLOYER_ADDRESS, to: TEST_WALLET_ADDRESS, value: '0x2' },
    ]);
    await receiptOf(`http://127.0.0.1:${left.port}`, hash, 2_000);
    // Another port is expected: the left-over chain is not reattached, and never holds a port.
    const other = await startDevChain({ chainId: 31_392 });
    const port = other.port;
    await other.stop();

    const chain = await startDevChain({ chainId: 31_391, port, stateFile, pidFile });
    started.push(chain);
    expect(chain.reattached).toBe(false);
    expect(chain.port).toBe(port);
    expect(isAlive(left.pid)).toBe(false);
    // It saved its state as it stopped: the transaction survived the restart.
    expect(await rpc<{ status: string } | null>(chain.rpcUrl, 'eth_getTransactionReceipt', [hash])).toMatchObject({
      status: '0x1',
    });
    expect(JSON.parse(readFileSync(pidFile, 'utf8'))).toMatchObject({ pid: chain.pid, port, chainId: 31_391 });
  });

  it('is reattached when it mines as expected (interval and mixed mining), and restarted with the expected mining when not', async () => {
    const { stateFile, pidFile } = paths();
    const mixed = { blockTime: 1, mixedMining: true };
    const left = await leaveChainRunning({ chainId: 31_395, stateFile, pidFile, ...mixed });
    const again = await startDevChain({ chainId: 31_395, port: left.port, stateFile, pidFile, ...mixed });
    expect(again).toMatchObject({ reattached: true, pid: left.pid });
    await again.stop();

    // A chain left by a server that mined differently (automine, before mixed mining): restarted.
    const other = paths();
    const automine = await leaveChainRunning({ chainId: 31_396, ...other });
    const chain = await startDevChain({ chainId: 31_396, port: automine.port, ...other, ...mixed });
    started.push(chain);
    expect(chain.reattached).toBe(false);
    expect(isAlive(automine.pid)).toBe(false);
    const quiet = BigInt(await rpc<string>(chain.rpcUrl, 'eth_blockNumber'));
    await expect
      .poll(async () => BigInt(await rpc<string>(chain.rpcUrl, 'eth_blockNumber')), { timeout: 2_500, interval: 100 })
      .toBeGreaterThan(quiet);
  });

  it('never signals a process that is not its chain (a pid given to another program)', async () => {
    const { stateFile, pidFile } = paths();
    writeFileSync(
      pidFile,
      JSON.stringify({ pid: process.pid, port: 1, chainId: 31_393, host: '127.0.0.1', stateFile }),
    );
    const chain = await startDevChain({ chainId: 31_393, stateFile, pidFile });
    started.push(chain);
    expect(chain.reattached).toBe(false);
    expect(JSON.parse(readFileSync(pidFile, 'utf8'))).toMatchObject({ pid: chain.pid });
  });

  it('starts from the last good state when a kill left the state file half-written', async () => {
    const { stateFile } = paths();
    const first = await startDevChain({ chainId: 31_394, stateFile });
    await first.stop();
    const second = await startDevChain({ chainId: 31_394, stateFile }); // keeps a good copy
    await second.stop();
    writeFileSync(stateFile, readFileSync(stateFile, 'utf8').slice(0, 200)); // killed mid-write
    const third = await startDevChain({ chainId: 31_394, stateFile });
    started.push(third);
    expect(await rpc<string>(third.rpcUrl, 'eth_chainId')).toBe('0x7aa2');
    expect(existsSync(`${stateFile}.broken`)).toBe(true);
  });
});
