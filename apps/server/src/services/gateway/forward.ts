import http from 'node:http';
import https from 'node:https';

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

/**
 * Posts JSON-RPC bodies to network RPC endpoints over kept-alive connections. Plain node:http
 * rather than fetch: on this path every request pays the client's overhead, and the gateway's
 * added latency is a product figure (bench/gateway.ts).
 */
export class RpcForwarder {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 64 });
  private readonly urls = new Map<string, URL>();

  /**
   * `timeoutMs` bounds the whole exchange (a node trickling bytes cannot hold a request open);
   * `maxBytes` bounds the answer kept in memory (a huge eth_getLogs is refused, not buffered).
   */
  constructor(
    private readonly timeoutMs = 30_000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  post(rpcUrl: string, body: Buffer): Promise<Upstream> {
    let url = this.urls.get(rpcUrl);
    if (!url) {
      url = new URL(rpcUrl);
      this.urls.set(rpcUrl, url);
    }
    const isHttps = url.protocol === 'https:';
    const client = isHttps ? https : http;
    return new Promise<Upstream>((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': body.length,
          },
          timeout: this.timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.maxBytes) {
              fail(new UpstreamError('TOO_LARGE', `answer larger than ${this.maxBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 502,
              contentType: response.headers['content-type'] ?? 'application/json',
              body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
            }),
          );
          response.on('error', (error) =>
            reject(error instanceof UpstreamError ? error : new UpstreamError('UNREACHABLE', error.message)),
          );
        },
      );
      // Rejects first, then tears the exchange down (its own error events come too late to matter).
      const fail = (error: UpstreamError) => {
        reject(error);
        request.destroy(error);
      };
      const deadline = setTimeout(
        () => fail(new UpstreamError('TIMEOUT', `no complete answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      request.on('close', () => clearTimeout(deadline));
      request.on('error', (error) =>
        reject(error instanceof UpstreamError ? error : new UpstreamError('UNREACHABLE', error.message)),
      );
      request.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
