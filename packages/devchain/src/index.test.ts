import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEPLOYER_ADDRESS, TEST_WALLET_ADDRESS, startDevChain, startDevChains, type DevChain } from './index.ts';

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
    for (let i = 0; i < 100; i++) {
      if (await rpc<unknown>(first.rpcUrl, 'eth_getTransactionReceipt', [hash])) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
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

  it('rejects an invalid chain id', async () => {
    await expect(startDevChain({ chainId: 0 })).rejects.toThrow(/invalid chain id/);
  });
});
