import {
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  getContractAddress,
  zeroAddress,
  type Hex,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { ensureLocalQntToken, LOCAL_QNT_ADDRESS, QNT_ABI, TRANSFER_TOPIC } from './qnt-token.ts';
import { rpcCall } from './rpc.ts';

const chains: TestChain[] = [];
let chain: TestChain;

beforeAll(async () => {
  chain = await startTestChain();
  chains.push(chain);
}, 60_000);
afterAll(async () => {
  await Promise.all(chains.map((c) => c.stop()));
});

const call = <T>(method: string, params: unknown[] = [], url = chain.rpcUrl) => rpcCall<T>(url, method, params);
const nonceOf = async (address: Hex) => BigInt(await call<Hex>('eth_getTransactionCount', [address, 'latest']));
async function balanceOf(token: Hex, account: Hex): Promise<bigint> {
  const data = encodeFunctionData({ abi: QNT_ABI, functionName: 'balanceOf', args: [account] });
  const answer = await call<Hex>('eth_call', [{ to: token, data }, 'latest']);
  return decodeFunctionResult({ abi: QNT_ABI, functionName: 'balanceOf', data: answer });
}

const QNT = 10n ** 18n;
const LAST = DEV_ACCOUNTS[9]!.address;

describe('ensureLocalQntToken', () => {
  it("deploys once from anvil's last account at its first nonce, minting 1 000 000 QNT to each of the ten accounts", async () => {
    const token = await ensureLocalQntToken(chain.rpcUrl);
    expect(token).toBe(getContractAddress({ from: LAST, nonce: 0n }));
    expect(token).toBe(LOCAL_QNT_ADDRESS);
    expect(await nonceOf(LAST)).toBe(1n);
    expect(DEV_ACCOUNTS).toHaveLength(10);
    for (const { address } of DEV_ACCOUNTS) expect(await balanceOf(token, address)).toBe(1_000_000n * QNT);

    // The mints are Transfer logs from the zero address, found by TRANSFER_TOPIC.
    const logs = await call<{ topics: [Hex, ...Hex[]]; data: Hex }[]>('eth_getLogs', [
      { address: token, topics: [TRANSFER_TOPIC], fromBlock: '0x0', toBlock: 'latest' },
    ]);
    const mints = logs.map((log) => decodeEventLog({ abi: QNT_ABI, topics: log.topics, data: log.data }).args);
    expect(mints).toEqual(DEV_ACCOUNTS.map(({ address }) => ({ from: zeroAddress, to: address, value: 10n ** 24n })));
  });

  it('deploys nothing when the token is already there, and answers the same address', async () => {
    const block = await call<Hex>('eth_blockNumber');
    expect(await ensureLocalQntToken(chain.rpcUrl)).toBe(LOCAL_QNT_ADDRESS);
    expect(await nonceOf(LAST)).toBe(1n);
    expect(await call<Hex>('eth_blockNumber')).toBe(block);
  });

  it("lets anvil's well-known accounts pay with it", async () => {
    const [payer, payee] = [DEV_ACCOUNTS[1]!.address, DEV_ACCOUNTS[2]!.address];
    const data = encodeFunctionData({ abi: QNT_ABI, functionName: 'transfer', args: [payee, 80n * QNT] });
    const hash = await call<Hex>('eth_sendTransaction', [{ from: payer, to: LOCAL_QNT_ADDRESS, data }]);
    const receipt = await vi.waitFor(
      async () => {
        const mined = await call<{ status: Hex } | null>('eth_getTransactionReceipt', [hash]);
        if (!mined) throw new Error('not mined');
        return mined;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(receipt.status).toBe('0x1');
    expect(await balanceOf(LOCAL_QNT_ADDRESS, payee)).toBe(1_000_080n * QNT);
  });

  it("refuses, saying why, when anvil's last account has already sent transactions on the chain", async () => {
    const used = await startTestChain();
    chains.push(used);
    await rpcCall(used.rpcUrl, 'eth_sendTransaction', [{ from: LAST, to: DEV_ACCOUNTS[0]!.address, value: '0x1' }]);
    await expect(ensureLocalQntToken(used.rpcUrl)).rejects.toThrow(/already sent 1 transaction.*QNT_TOKEN_ADDRESS/);
    expect(await rpcCall<Hex>(used.rpcUrl, 'eth_getCode', [LOCAL_QNT_ADDRESS, 'latest'])).toBe('0x');
  });
});
