import { Agent, errors, type Dispatcher } from 'undici';

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
   *
   * Dispatched with a handler of its own (Exchange) rather than `agent.request`, whose body stream,
   * async resource and promise per call cost about a tenth of a forwarded call's server CPU
   * (bench/gateway.ts with the cache off, four interleaved rounds: 76–103 → 69–95 µs per call,
   * median 92 → 79; docs/benchmarks.md).
   */
  post(rpcUrl: string, body: Buffer): Promise<Upstream> {
    const { origin, path } = this.target(rpcUrl);
    return new Promise((resolve, reject) => {
      this.agent.dispatch(
        { origin, path, method: 'POST', headers: HEADERS, body },
        new Exchange(resolve, reject, this.maxBytes, this.timeoutMs),
      );
    });
  }

  close(): void {
    void this.agent.destroy().catch(() => undefined);
  }
}

/** One exchange with a node (RpcForwarder.post): the answer's status, content type and bytes, bounded. */
class Exchange implements Dispatcher.DispatchHandler {
  private readonly deadlineMs: number;
  private status = 0;
  private contentType = 'application/json';
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly resolve: (upstream: Upstream) => void,
    private readonly reject: (error: UpstreamError) => void,
    private readonly maxBytes: number,
    private readonly timeoutMs: number,
  ) {
    this.deadlineMs = Date.now() + timeoutMs;
  }

  /** undici's handler API (v7) goes by this method's presence; nothing to do when the request starts. */
  onRequestStart(): void {}

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (Number(headers['content-length'] ?? 0) > this.maxBytes) return controller.abort(this.tooLarge());
    const type = headers['content-type'];
    this.status = statusCode;
    this.contentType = (Array.isArray(type) ? type[0] : type) ?? 'application/json';
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return controller.abort(this.tooLarge());
    if (Date.now() > this.deadlineMs) return controller.abort(this.timedOut());
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const { chunks } = this;
    this.resolve({
      status: this.status,
      contentType: this.contentType,
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (error instanceof UpstreamError) return this.reject(error);
    if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError)
      return this.reject(this.timedOut());
    this.reject(new UpstreamError('UNREACHABLE', error.message));
  }

  private tooLarge() {
    return new UpstreamError('TOO_LARGE', `answer larger than ${this.maxBytes} bytes`);
  }

  private timedOut() {
    return new UpstreamError('TIMEOUT', `no complete answer within ${this.timeoutMs} ms`);
  }
}
