import type { Upstream } from './forward.ts';

/** How long an eth_blockNumber answer is shared: a caller may see a head up to this much older. */
export const HEAD_TTL_MS = 250;
/** eth_chainId and net_version never change for a chain; re-read now and then in case the endpoint is replaced. */
export const CHAIN_TTL_MS = 60_000;

const TTL_MS: Record<string, number> = {
  eth_chainId: CHAIN_TTL_MS,
  net_version: CHAIN_TTL_MS,
  eth_blockNumber: HEAD_TTL_MS,
};

type Entry = { result: string; untilMs: number };

/** A single JSON-RPC 2.0 call (with an id: notifications are always forwarded) whose answer may be shared. */
export type SharedCall = { key: string; id: string };

/**
 * Answers of a few JSON-RPC calls that do not depend on who asks, shared per network the way
 * hosted RPC providers do: `eth_chainId` and `net_version` (fixed for a chain; kept 60 s) and
 * `eth_blockNumber` (the chain head; kept HEAD_TTL_MS, so an answer is at most that much older
 * than the node's head when it was read). Only single calls without parameters qualify; batches,
 * notifications and every other method are forwarded. Only successful answers (HTTP 200 with a
 * JSON-RPC `result`) are kept. The caller's own id goes into each answer. `GATEWAY_CACHE=off`
 * turns it off.
 */
export class SharedAnswers {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: Record<string, number> = TTL_MS) {}

  /** The call's cache key when its answer may be shared, else null. */
  sharedCall(networkId: string, rpcUrl: string, call: unknown): SharedCall | null {
    if (!call || typeof call !== 'object' || Array.isArray(call)) return null;
    const { jsonrpc, method, params, id } = call as Record<string, unknown>;
    if (jsonrpc !== '2.0' || typeof method !== 'string' || this.ttlMs[method] === undefined) return null;
    if (params !== undefined && !(Array.isArray(params) && params.length === 0)) return null;
    // JSON-RPC ids are strings, numbers or null; anything else is the node's to refuse.
    if (id === undefined || (id !== null && typeof id !== 'string' && typeof id !== 'number')) return null;
    return { key: `${networkId}|${rpcUrl}|${method}`, id: JSON.stringify(id) };
  }

  /**
   * The shared answer to the call, with the caller's id, or null when there is none fresh enough.
   * A string, not a Buffer: Node.js writes a string body with the headers in one write where a
   * Buffer takes a copy and a writev (see `send` in fast-path.ts) — about a tenth of a shared
   * answer's server CPU (bench/gateway.ts, four interleaved rounds: median 41.5 → 37.5 µs per call;
   * docs/benchmarks.md).
   */
  answer(call: SharedCall, nowMs = Date.now()): string | null {
    const entry = this.entries.get(call.key);
    if (!entry || entry.untilMs <= nowMs) return null;
    return `{"jsonrpc":"2.0","id":${call.id},"result":${entry.result}}`;
  }

  /** Keeps the node's answer to the call when it is a success. */
  remember(call: SharedCall, upstream: Upstream, nowMs = Date.now()): void {
    if (upstream.status !== 200) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(upstream.body.toString('utf8'));
    } catch {
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return;
    const answer = parsed as Record<string, unknown>;
    if (answer.error !== undefined || answer.result === undefined) return;
    const method = call.key.slice(call.key.lastIndexOf('|') + 1);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(call.key, { result: JSON.stringify(answer.result), untilMs: nowMs + this.ttlMs[method]! });
  }
}
