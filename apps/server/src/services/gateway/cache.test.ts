import { describe, expect, it } from 'vitest';
import { CHAIN_TTL_MS, HEAD_TTL_MS, SharedAnswers } from './cache.ts';

const RPC = 'http://127.0.0.1:8545/';
const ok = (body: unknown, status = 200) => ({
  status,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(body)),
});
const call = (method: string, id: unknown = 1, params: unknown = []) => ({ jsonrpc: '2.0', id, method, params });

describe('SharedAnswers', () => {
  it('shares eth_blockNumber for HEAD_TTL_MS, each caller getting its own id', () => {
    const answers = new SharedAnswers();
    const first = answers.sharedCall('net-1', RPC, call('eth_blockNumber', 7))!;
    expect(answers.answer(first, 1_000)).toBeNull();
    answers.remember(first, ok({ jsonrpc: '2.0', id: 7, result: '0x2a' }), 1_000);

    const second = answers.sharedCall('net-1', RPC, call('eth_blockNumber', 'abc'))!;
    expect(JSON.parse(answers.answer(second, 1_000 + HEAD_TTL_MS - 1)!.toString())).toEqual({
      jsonrpc: '2.0',
      id: 'abc',
      result: '0x2a',
    });
    expect(answers.answer(second, 1_000 + HEAD_TTL_MS)).toBeNull();
    // Another network, or the same network at another RPC URL, has its own answer.
    expect(answers.answer(answers.sharedCall('net-2', RPC, call('eth_blockNumber'))!, 1_000)).toBeNull();
    expect(answers.answer(answers.sharedCall('net-1', `${RPC}v2`, call('eth_blockNumber'))!, 1_000)).toBeNull();
  });

  it('keeps eth_chainId and net_version for CHAIN_TTL_MS', () => {
    const answers = new SharedAnswers();
    for (const method of ['eth_chainId', 'net_version']) {
      const shared = answers.sharedCall('net-1', RPC, call(method, null))!;
      answers.remember(shared, ok({ jsonrpc: '2.0', id: null, result: '0x7a69' }), 0);
      expect(JSON.parse(answers.answer(shared, CHAIN_TTL_MS - 1)!.toString())).toEqual({
        jsonrpc: '2.0',
        id: null,
        result: '0x7a69',
      });
      expect(answers.answer(shared, CHAIN_TTL_MS)).toBeNull();
    }
  });

  it('shares only parameterless single calls with an id, of the listed methods', () => {
    const answers = new SharedAnswers();
    expect(answers.sharedCall('n', RPC, call('eth_getBalance', 1, ['0x0', 'latest']))).toBeNull();
    expect(answers.sharedCall('n', RPC, call('eth_blockNumber', 1, ['x']))).toBeNull();
    expect(answers.sharedCall('n', RPC, call('eth_blockNumber', 1, {}))).toBeNull();
    expect(answers.sharedCall('n', RPC, { jsonrpc: '2.0', method: 'eth_blockNumber' })).toBeNull(); // a notification
    expect(answers.sharedCall('n', RPC, call('eth_blockNumber', { nested: true }))).toBeNull();
    expect(answers.sharedCall('n', RPC, { jsonrpc: '1.0', id: 1, method: 'eth_blockNumber' })).toBeNull();
    expect(answers.sharedCall('n', RPC, [call('eth_blockNumber')])).toBeNull();
    expect(answers.sharedCall('n', RPC, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).not.toBeNull();
  });

  it('never keeps errors, HTTP failures or answers that are not JSON-RPC results', () => {
    const answers = new SharedAnswers();
    const shared = answers.sharedCall('n', RPC, call('eth_blockNumber'))!;
    answers.remember(shared, ok({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'down' } }), 0);
    answers.remember(shared, ok({ jsonrpc: '2.0', id: 1, result: '0x1' }, 503), 0);
    answers.remember(shared, { status: 200, contentType: 'text/plain', body: Buffer.from('busy') }, 0);
    answers.remember(shared, ok([{ jsonrpc: '2.0', id: 1, result: '0x1' }]), 0);
    expect(answers.answer(shared, 1)).toBeNull();
  });
});
