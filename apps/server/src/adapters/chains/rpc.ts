/**
 * A small JSON-RPC 2.0 client over fetch for EVM nodes. Every failure is an RpcError whose
 * `kind` tells the caller what happened: the node could not be reached, did not answer in time,
 * answered something that is not JSON-RPC, or answered with a JSON-RPC error object.
 */

export type RpcErrorKind = 'UNREACHABLE' | 'TIMEOUT' | 'HTTP' | 'INVALID_RESPONSE' | 'RPC';

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
}

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
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal,
    });
  } catch (err) {
    throw fetchFailure(err, url, timeoutMs, timeout);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
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
