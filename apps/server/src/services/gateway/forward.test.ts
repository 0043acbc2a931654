import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcForwarder, UpstreamError } from './forward.ts';

/** A local RPC stand-in whose answer the test controls. */
async function upstream(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('RpcForwarder', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('passes the answer through with its status and content type', async () => {
    const node = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"0x2a"}');
    });
    const forwarder = new RpcForwarder();
    cleanups.push(node.close, () => forwarder.close());
    const answer = await forwarder.post(node.url, Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}'));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toMatchObject({ result: '0x2a' });
  });

  it('gives up on a node that keeps trickling bytes past the deadline', async () => {
    const node = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const forwarder = new RpcForwarder(400);
    cleanups.push(node.close, () => forwarder.close());
    const started = Date.now();
    const error = await forwarder.post(node.url, Buffer.from('{}')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it.each([
    ['sent in chunks, counted as it arrives', {}],
    ['whose declared length is over the cap, without reading it', { 'content-length': 64 * 1024 }],
  ])('refuses an answer larger than its cap instead of buffering it: %s', async (_case, headers) => {
    const node = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(Buffer.alloc(64 * 1024, 0x20));
    });
    const forwarder = new RpcForwarder(5_000, 16 * 1024);
    cleanups.push(node.close, () => forwarder.close());
    const error = await forwarder.post(node.url, Buffer.from('{}')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('TOO_LARGE');
  });

  it('reports a closed port as unreachable', async () => {
    const node = await upstream((_req, res) => res.end());
    await node.close();
    const forwarder = new RpcForwarder(2_000);
    cleanups.push(() => forwarder.close());
    const error = await forwarder.post(node.url, Buffer.from('{}')).catch((e: unknown) => e);
    expect((error as UpstreamError).kind).toBe('UNREACHABLE');
  });
});
