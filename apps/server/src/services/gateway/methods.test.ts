import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { ZProblem, ZTokenResponse } from '@connect/shared';
import { startTestChain, type TestChain } from '../../../test/chains.ts';
import { createTestApp, type TestContext } from '../../../test/helpers.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import { activate, addNetwork, liftPlanLimits, createApplication, newAppUser } from '../application-manager/testing.ts';
import { MAX_BATCH, MAX_LOG_BLOCKS, NEEDS_HEAD, screenCalls } from './methods.ts';

/** anvil's first account: unlocked on the local chains, so eth_sendTransaction would sign as it. */
const UNLOCKED = DEV_ACCOUNTS[0]!.address;
/** An account whose balance nothing in this file should change except the raw transfer test. */
const TARGET = '0x00000000000000000000000000000000000c0ffe';

/**
 * A pass-through in front of the chain that notes every method it is sent, so a test can tell
 * what reached the chain and not only what changed there.
 */
async function recordingProxy(target: string): Promise<{ url: string; methods: string[]; server: Server }> {
  const methods: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const parsed = JSON.parse(body.toString('utf8')) as { method: string } | { method: string }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) methods.push(call.method);
      const upstream = httpRequest(
        target,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
          });
          answer.pipe(res);
        },
      );
      upstream.end(body);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, methods, server };
}

type RpcAnswer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string } };

describe('gateway method allow-list', () => {
  let t: TestContext;
  let chain: TestChain;
  let networkId: string;
  let token: string;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  beforeAll(async () => {
    [t, chain] = await Promise.all([createTestApp(), startTestChain()]);
    proxy = await recordingProxy(chain.rpcUrl);
    const owner = await newAppUser(t);
    await liftPlanLimits(t, owner.accountId);
    ({ id: networkId } = await addNetwork(t, { rpcUrl: proxy.url, chainId: chain.chainId, rateLimit: 1000 }));
    await activate(t, owner.accountId, networkId);
    const app = await createApplication(t, owner, [networkId]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.clientSecret },
    });
    token = ZTokenResponse.parse(res.json()).access_token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    proxy?.server.close();
    await chain?.stop();
  });

  const send = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/gateway/${networkId}`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify(payload),
    });
  const call = (id: unknown, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });

  /** What the chain says, asked directly (not through the gateway). */
  const chainState = async () => ({
    block: await rpcCall<string>(chain.rpcUrl, 'eth_blockNumber', []),
    target: await rpcCall<string>(chain.rpcUrl, 'eth_getBalance', [TARGET, 'latest']),
    unlockedNonce: await rpcCall<string>(chain.rpcUrl, 'eth_getTransactionCount', [UNLOCKED, 'latest']),
  });

  const refusedCalls = [
    call(1, 'anvil_setBalance', [TARGET, '0xde0b6b3a7640000']),
    call(2, 'eth_sendTransaction', [{ from: UNLOCKED, to: TARGET, value: '0xde0b6b3a7640000' }]),
    call(3, 'eth_sign', [UNLOCKED, '0xdeadbeef']),
    call(4, 'personal_sign', ['0xdeadbeef', UNLOCKED]),
    call(5, 'debug_traceTransaction', [`0x${'ab'.repeat(32)}`]),
    call(6, 'evm_mine'),
    call(7, 'txpool_content'),
    call(8, 'eth_signTypedData_v4', [UNLOCKED, '{}']),
    call(9, 'eth_signTransaction', [{ from: UNLOCKED, to: TARGET }]),
    call(10, 'eth_accounts'),
    call(11, 'admin_nodeInfo'),
    call(12, 'hardhat_mine'),
    call('x', 'anvil_mine', ['0x10']),
    call(null, 'no_suchMethod'),
  ];

  it('refuses methods outside the allow-list with -32601, and they never reach the chain', async () => {
    const before = await chainState();
    for (const refused of refusedCalls) {
      const res = await send(refused);
      expect(res.statusCode, refused.method).toBe(200);
      expect(res.headers['content-type'], refused.method).toMatch(/^application\/json/);
      expect(res.json(), refused.method).toEqual({
        jsonrpc: '2.0',
        id: refused.id,
        error: { code: -32601, message: expect.stringMatching(/not found or not allowed/) },
      });
    }
    expect(await chainState()).toEqual(before);
    // (The network monitor may poll the chain through the proxy too: only the refused methods matter.)
    expect(proxy.methods.filter((method) => refusedCalls.some((refused) => refused.method === method))).toEqual([]);
  });

  it('answers a batch’s allowed calls and refuses the others, forwarding only the allowed ones', async () => {
    const before = await chainState();
    proxy.methods.length = 0;
    const res = await send([
      call(1, 'eth_chainId'),
      call(2, 'anvil_setBalance', [TARGET, '0xde0b6b3a7640000']),
      call(3, 'eth_getBalance', [TARGET, 'latest']),
      call(4, 'eth_sendTransaction', [{ from: UNLOCKED, to: TARGET, value: '0x1' }]),
      // A notification is refused without an answer, as JSON-RPC wants.
      { jsonrpc: '2.0', method: 'evm_mine', params: [] },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const answers = res.json() as RpcAnswer[];
    expect(answers).toHaveLength(4);
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    expect(Number(BigInt(byId.get(1)!.result as string))).toBe(chain.chainId);
    expect(byId.get(3)!.result).toBe(before.target);
    for (const id of [2, 4]) expect(byId.get(id)!.error).toMatchObject({ code: -32601 });
    expect(await chainState()).toEqual(before);

    // Every call refused: the gateway answers alone.
    const allRefused = await send([call(1, 'evm_mine'), call(2, 'anvil_setBalance', [TARGET, '0x1'])]);
    expect((allRefused.json() as RpcAnswer[]).map((answer) => answer.error?.code)).toEqual([-32601, -32601]);
    // Allowed notifications are forwarded (the node answers them with nothing), refused calls answered.
    const quiet = await send([{ jsonrpc: '2.0', method: 'eth_blockNumber', params: [] }, call(5, 'evm_mine')]);
    expect(quiet.json()).toEqual([{ jsonrpc: '2.0', id: 5, error: expect.objectContaining({ code: -32601 }) }]);
    // Only refused notifications: nothing to answer.
    const silent = await send({ jsonrpc: '2.0', method: 'evm_mine', params: [] });
    expect(silent.statusCode).toBe(204);
    expect(silent.body).toBe('');
    expect(await chainState()).toEqual(before);
    expect(proxy.methods).toEqual(expect.arrayContaining(['eth_chainId', 'eth_getBalance', 'eth_blockNumber']));
    for (const refused of ['anvil_setBalance', 'eth_sendTransaction', 'evm_mine']) {
      expect(proxy.methods).not.toContain(refused);
    }
  });

  it('refuses a batch of more than MAX_BATCH calls whole, with a 400 problem', async () => {
    const before = await chainState();
    const tooMany = Array.from({ length: MAX_BATCH + 1 }, (_, i) => call(i, 'eth_blockNumber'));
    tooMany[0] = call(0, 'eth_sendTransaction', [{ from: UNLOCKED, to: TARGET, value: '0x1' }]);
    const res = await send(tooMany);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(ZProblem.parse(res.json()).detail).toMatch(/at most 100 calls/);
    const full = await send(tooMany.slice(1));
    expect((full.json() as RpcAnswer[]).length).toBe(MAX_BATCH);
    expect(await chainState()).toEqual(before);
  });

  it('bounds eth_getLogs and eth_newFilter block ranges', async () => {
    const getLogs = (filter: unknown) => send(call(1, 'eth_getLogs', [filter]));
    const errorOf = async (res: Awaited<ReturnType<typeof send>>) => (res.json() as RpcAnswer).error;

    expect((await getLogs({ fromBlock: '0x0', toBlock: `0x${(MAX_LOG_BLOCKS - 1).toString(16)}` })).json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: [],
    });
    const wide = await getLogs({ fromBlock: '0x0', toBlock: `0x${MAX_LOG_BLOCKS.toString(16)}` });
    expect(wide.statusCode).toBe(200);
    expect(await errorOf(wide)).toEqual({ code: -32005, message: expect.stringMatching(/at most 10000 blocks/) });
    expect(await errorOf(await getLogs({ fromBlock: '100', toBlock: 'latest' }))).toMatchObject({ code: -32602 });
    expect(await errorOf(await send(call(1, 'eth_getLogs', [])))).toMatchObject({ code: -32602 });
    const wideFilter = await send(call(2, 'eth_newFilter', [{ fromBlock: 'earliest', toBlock: '0x5f5e100' }]));
    expect(await errorOf(wideFilter)).toMatchObject({ code: -32005 });

    // Ranges that end at a tag are measured against the chain's head (a short chain here).
    const head = BigInt(await rpcCall<string>(chain.rpcUrl, 'eth_blockNumber', []));
    expect(head).toBeLessThan(MAX_LOG_BLOCKS);
    expect((await getLogs({ fromBlock: 'earliest' })).json()).toMatchObject({ id: 1, result: [] });
    expect((await getLogs({ fromBlock: '0x0', toBlock: 'latest' })).json()).toMatchObject({ result: [] });
    const past = `0x${(head + BigInt(MAX_LOG_BLOCKS)).toString(16)}`;
    expect(await errorOf(await getLogs({ fromBlock: 'latest', toBlock: past }))).toMatchObject({ code: -32005 });
    expect((await getLogs({})).json()).toMatchObject({ result: [] });
    const block = await rpcCall<{ hash: string }>(chain.rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
    expect((await getLogs({ blockHash: block.hash })).json()).toMatchObject({ result: [] });

    // A bounded filter works end to end.
    const filter = (await send(call(3, 'eth_newFilter', [{ fromBlock: 'latest' }]))).json() as RpcAnswer;
    expect(filter.result).toEqual(expect.stringMatching(/^0x/));
    expect((await send(call(4, 'eth_getFilterChanges', [filter.result]))).json()).toMatchObject({ result: [] });
    expect((await send(call(5, 'eth_uninstallFilter', [filter.result]))).json()).toMatchObject({ result: true });
    const blocks = (await send(call(6, 'eth_newBlockFilter'))).json() as RpcAnswer;
    expect(blocks.result).toEqual(expect.stringMatching(/^0x/));
  });

  it('still forwards eth_call, eth_estimateGas and eth_sendRawTransaction', async () => {
    const sender = privateKeyToAccount(DEV_ACCOUNTS[3]!.privateKey);
    const balanceBefore = BigInt(await rpcCall<string>(chain.rpcUrl, 'eth_getBalance', [TARGET, 'latest']));
    const estimate = (
      await send(call(1, 'eth_estimateGas', [{ from: sender.address, to: TARGET, value: '0x1' }]))
    ).json() as RpcAnswer;
    expect(estimate.result).toBe('0x5208');
    const called = (await send(call(2, 'eth_call', [{ to: TARGET, data: '0x' }, 'latest']))).json() as RpcAnswer;
    expect(called.result).toBe('0x');

    const nonce = await rpcCall<string>(chain.rpcUrl, 'eth_getTransactionCount', [sender.address, 'latest']);
    const raw: Hex = await sender.signTransaction({
      chainId: chain.chainId,
      type: 'eip1559',
      to: TARGET,
      value: parseEther('0.5'),
      nonce: Number(nonce),
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
    const sent = (await send(call(3, 'eth_sendRawTransaction', [raw]))).json() as RpcAnswer;
    expect(sent.error).toBeUndefined();
    expect(sent.result).toEqual(expect.stringMatching(/^0x[0-9a-f]{64}$/));
    await expect
      .poll(async () => BigInt(await rpcCall<string>(chain.rpcUrl, 'eth_getBalance', [TARGET, 'latest'])), {
        timeout: 5_000,
      })
      .toBe(balanceBefore + parseEther('0.5'));
  });
});

describe('screenCalls', () => {
  const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });

  it('passes requests whose every call is allowed as they are', () => {
    expect(screenCalls(call('eth_blockNumber'))).toBeNull();
    expect(screenCalls([call('eth_chainId'), call('eth_getBalance', ['0x0', 'latest'])])).toBeNull();
    expect(screenCalls(call('eth_getLogs', [{ fromBlock: '0x10', toBlock: '0x20' }]))).toBeNull();
  });

  it('keeps the allowed calls of a batch in order and answers the refused ones', () => {
    const batch = [call('eth_chainId', [], 1), call('eth_sign', [], 2), call('net_version', [], 3)];
    expect(screenCalls(batch)).toEqual({
      forward: [batch[0], batch[2]],
      refusals: [{ jsonrpc: '2.0', id: 2, error: { code: -32601, message: expect.stringContaining('eth_sign') } }],
    });
  });

  it('asks for the chain head only when a range runs from a number to a tag', () => {
    const sinceGenesis = call('eth_getLogs', [{ fromBlock: '0x0' }]);
    expect(screenCalls(sinceGenesis)).toBe(NEEDS_HEAD);
    expect(screenCalls([call('eth_chainId'), sinceGenesis])).toBe(NEEDS_HEAD);
    expect(screenCalls(sinceGenesis, 9_999n)).toBeNull();
    expect(screenCalls(sinceGenesis, 10_000n)).toMatchObject({ refusals: [{ error: { code: -32005 } }] });
    expect(screenCalls(call('eth_getLogs', [{ fromBlock: 'safe', toBlock: 'pending' }]))).toBeNull();
  });
});
