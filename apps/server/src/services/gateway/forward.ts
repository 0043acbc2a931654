import type { Readable } from 'node:stream';
import { Agent, errors } from 'undici';

export type Upstream = { status: number; contentType: string; body: Buffer };

export class UpstreamError extends Error {
  constructor(
    readonly kind: 'UNREACHABLE' | 'TIMEOUT' | 'TOO_LARGE',
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

type Target = { origin: string; path: string };

const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/**
 * Posts JSON-RPC bodies to network RPC endpoints over kept-alive connections with undici's
 * dispatcher (about 40 % less CPU per forwarded call than node:http's client on the bench
 * machine, see docs/decisions/developer-hub.md): on this path every request pays the client's overhead, and
 * the gateway's added latency is a product figure (bench/gateway.ts). No pipelining: one slow
 * call (a large eth_getLogs) must not hold up the calls queued behind it on the same socket.
 */
export class RpcForwarder {
  private readonly agent: Agent;
  private readonly targets = new Map<string, Target>();

  /**
   * `timeoutMs` bounds the whole exchange (a node trickling bytes cannot hold a request open);
   * `maxBytes` bounds the answer kept in memory (a huge eth_getLogs is refused, not buffered).
   */
  constructor(
    private readonly timeoutMs = 30_000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {
    this.agent = new Agent({
      connections: 128,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  private target(rpcUrl: string): Target {
    let target = this.targets.get(rpcUrl);
    if (!target) {
      const url = new URL(rpcUrl);
      target = { origin: url.origin, path: `${url.pathname}${url.search}` };
      if (this.targets.size > 10_000) this.targets.clear();
      this.targets.set(rpcUrl, target);
    }
    return target;
  }

  /**
   * The network's answer to a body. The exchange is bounded without a timer or an AbortController
   * of its own (together about 8 % of a forwarded call's CPU on the bench machine,
   * bench/gateway.ts): the agent's headersTimeout and bodyTimeout bound each wait, and the answer's
   * chunks are checked against the deadline as they come, so a node trickling bytes is cut off at
   * its first chunk past it — within twice timeoutMs in all.
   */
  async post(rpcUrl: string, body: Buffer): Promise<Upstream> {
    const { origin, path } = this.target(rpcUrl);
    const deadlineMs = Date.now() + this.timeoutMs;
    try {
      const response = await this.agent.request({ origin, path, method: 'POST', headers: HEADERS, body });
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > this.maxBytes) {
        response.body.destroy();
        throw new UpstreamError('TOO_LARGE', `answer larger than ${this.maxBytes} bytes`);
      }
      const contentType = response.headers['content-type'];
      return {
        status: response.statusCode,
        contentType: (Array.isArray(contentType) ? contentType[0] : contentType) ?? 'application/json',
        body: await this.read(response.body, deadlineMs),
      };
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
        throw new UpstreamError('TIMEOUT', `no complete answer within ${this.timeoutMs} ms`);
      }
      throw new UpstreamError('UNREACHABLE', error instanceof Error ? error.message : String(error));
    }
  }

  /** An answer's bytes, at most maxBytes, all of them before the deadline. */
  private read(stream: Readable, deadlineMs: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (error: Error) => {
        stream.destroy();
        reject(error);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.maxBytes)
          return fail(new UpstreamError('TOO_LARGE', `answer larger than ${this.maxBytes} bytes`));
        if (Date.now() > deadlineMs)
          return fail(new UpstreamError('TIMEOUT', `no complete answer within ${this.timeoutMs} ms`));
        chunks.push(chunk);
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    });
  }

  close(): void {
    void this.agent.destroy().catch(() => undefined);
  }
}
