import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';
import { bareHost, BlockedAddressError, resolveAllowed, type Resolver } from './address-policy.ts';

/**
 * A small JSON-RPC 2.0 client for EVM nodes. Every failure is an RpcError whose `kind` tells the
 * caller what happened: the node could not be reached, did not answer in time, answered something
 * that is not JSON-RPC (or too much of it), answered with a JSON-RPC error object, or (when
 * private addresses are refused) the URL's host is or resolves to a private or local address.
 */

export type RpcErrorKind = 'UNREACHABLE' | 'TIMEOUT' | 'HTTP' | 'INVALID_RESPONSE' | 'TOO_LARGE' | 'BLOCKED' | 'RPC';

export class RpcError extends Error {
  constructor(
    readonly kind: RpcErrorKind,
    message: string,
    /** JSON-RPC error code (kind RPC) or HTTP status (kind HTTP). */
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcCallOptions {
  /** Default 5000 ms. */
  timeoutMs?: number;
  /** Extra abort signal (e.g. the incoming request's). */
  signal?: AbortSignal;
  /** Largest answer read, in bytes (default 32 MiB); a longer one fails with kind TOO_LARGE. */
  maxResponseBytes?: number;
  /**
   * Default true. False (URLs a user entered, in production): the host must resolve only to
   * public addresses (see address-policy.ts), the connection goes to the address that was checked
   * (no second lookup, so no DNS rebinding), and redirects are not followed. Failing that: kind BLOCKED.
   */
  allowPrivateAddresses?: boolean;
  /** Name resolution for the checked path (tests); the system resolver by default. */
  resolve?: Resolver;
}

const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

let nextId = 1;

export async function rpcCall<T = unknown>(
  url: string,
  method: string,
  params: unknown[] | Record<string, unknown> = [],
  options: RpcCallOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const id = nextId++;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const payload = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  let res: { ok: boolean; status: number };
  let text: string;
  try {
    ({ res, text } =
      // fetch refuses URLs with credentials (https://user:key@node/), which RPC providers hand out.
      options.allowPrivateAddresses === false || options.resolve || hasCredentials(url)
        ? await postChecked(url, payload, signal, maxBytes, options)
        : await postPooled(url, payload, signal, maxBytes));
  } catch (err) {
    if (err instanceof RpcError) throw err;
    if (err instanceof BlockedAddressError) throw new RpcError('BLOCKED', `${url}: ${err.message}`);
    throw fetchFailure(err, url, timeoutMs, timeout);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (!res.ok) throw new RpcError('HTTP', `${url} answered HTTP ${res.status}`, res.status);
    throw new RpcError('INVALID_RESPONSE', `${url} did not answer JSON`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RpcError('INVALID_RESPONSE', `${url} did not answer a JSON-RPC object`);
  }
  const msg = body as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
  if (msg.error && typeof msg.error === 'object') {
    const code = typeof msg.error.code === 'number' ? msg.error.code : undefined;
    const message = typeof msg.error.message === 'string' ? msg.error.message : 'JSON-RPC error';
    throw new RpcError('RPC', message, code, msg.error.data);
  }
  if (!res.ok) throw new RpcError('HTTP', `${url} answered HTTP ${res.status}`, res.status);
  if (!('result' in msg)) throw new RpcError('INVALID_RESPONSE', `${url} answered without a result`);
  return msg.result as T;
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

type Answer = { res: { ok: boolean; status: number }; text: string };

const tooLarge = (url: string, maxBytes: number) =>
  new RpcError('TOO_LARGE', `${url} answered more than ${maxBytes} bytes`);

/**
 * Calls to configured endpoints (the catalogue's RPC URLs) share one kept-alive undici agent:
 * its `request` costs far less per call than `fetch` (no WHATWG request, response and stream
 * objects), and a deployment makes five calls on its critical path. Redirects are not followed.
 */
const agent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
const origins = new Map<string, { origin: string; path: string }>();

function targetOf(url: string): { origin: string; path: string } {
  let target = origins.get(url);
  if (!target) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new RpcError('UNREACHABLE', `${url}: only http and https URLs are called`);
    }
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (origins.size > 10_000) origins.clear();
    origins.set(url, target);
  }
  return target;
}

async function postPooled(url: string, body: string, signal: AbortSignal, maxBytes: number): Promise<Answer> {
  const { origin, path } = targetOf(url);
  const res = await agent.request({
    origin,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
    signal,
  });
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) {
    res.body.destroy();
    throw tooLarge(url, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.body.destroy();
      throw tooLarge(url, maxBytes);
    }
    chunks.push(chunk);
  }
  const status = res.statusCode;
  return {
    res: { ok: status >= 200 && status < 300, status },
    text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'),
  };
}

/**
 * POST over node:http(s) to the address resolveAllowed() checked: the socket's lookup answers
 * that address only, TLS still verifies the URL's host name, and a redirect is an HTTP answer,
 * never followed.
 */
async function postChecked(
  rawUrl: string,
  body: string,
  signal: AbortSignal,
  maxBytes: number,
  options: RpcCallOptions,
): Promise<Answer> {
  const url = new URL(rawUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RpcError('UNREACHABLE', `${rawUrl}: only http and https URLs are called`);
  }
  const target = await resolveAllowed(url.hostname, {
    allowPrivate: options.allowPrivateAddresses !== false,
    resolve: options.resolve,
  });
  signal.throwIfAborted();
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        agent: false,
        lookup,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const declared = Number(response.headers['content-length'] ?? Number.NaN);
        if (declared > maxBytes) {
          request.destroy(tooLarge(rawUrl, maxBytes));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) request.destroy(tooLarge(rawUrl, maxBytes));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            res: { ok: status >= 200 && status < 300, status },
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function fetchFailure(err: unknown, url: string, timeoutMs: number, timeout: AbortSignal): RpcError {
  if (timeout.aborted) return new RpcError('TIMEOUT', `${url} did not answer within ${timeoutMs} ms`);
  if (err instanceof Error && err.name === 'AbortError') return new RpcError('TIMEOUT', `${url}: request aborted`);
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
  return new RpcError('UNREACHABLE', `${url} is unreachable (${cause})`);
}

export interface RpcProbe {
  chainId: number;
  latestBlock: bigint;
  /** Base fee of the latest block; present exactly when the chain supports EIP-1559. */
  baseFeePerGas: bigint | null;
  /** The latest block's timestamp (Unix seconds), when the node reports one. */
  latestBlockTimestamp?: number;
}

const QUANTITY = /^0x[0-9a-fA-F]+$/;

function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !QUANTITY.test(value)) {
    throw new RpcError('INVALID_RESPONSE', `${what} is not a hex quantity`);
  }
  return BigInt(value);
}

/** Asks a node for its chain id and latest block (number and base fee). */
export async function probeRpc(url: string, options: RpcCallOptions = {}): Promise<RpcProbe> {
  const [chainIdHex, block] = await Promise.all([
    rpcCall<unknown>(url, 'eth_chainId', [], options),
    rpcCall<unknown>(url, 'eth_getBlockByNumber', ['latest', false], options),
  ]);
  const chainId = quantity(chainIdHex, 'eth_chainId');
  if (typeof block !== 'object' || block === null) {
    throw new RpcError('INVALID_RESPONSE', 'the latest block is missing');
  }
  const b = block as { number?: unknown; baseFeePerGas?: unknown; timestamp?: unknown };
  return {
    chainId: Number(chainId),
    latestBlock: quantity(b.number, 'block number'),
    baseFeePerGas: b.baseFeePerGas == null ? null : quantity(b.baseFeePerGas, 'baseFeePerGas'),
    ...(b.timestamp == null ? {} : { latestBlockTimestamp: Number(quantity(b.timestamp, 'block timestamp')) }),
  };
}
