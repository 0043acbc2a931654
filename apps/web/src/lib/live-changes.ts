import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { currentAccessToken } from './auth.ts';

/**
 * The account's changes pushed by the server (GET /api/connect/live, Server-Sent Events): read
 * with `fetch` so the bearer token goes in the Authorization header (an EventSource cannot send
 * it, and a token never goes in a URL). Each change makes the queries that show it stale, so the
 * open page reads them again at once; the queries' own polls stay as the fallback.
 */

/** A change as the server sends it (`type` is the domain event's, or `resync`). */
export type LiveChange = { type: string; orderId?: string; invoiceId?: string; tokenId?: string };

const NOTIFICATIONS: QueryKey = ['connect', 'notifications'];
/** Orders, the plan, credits and the invoices (never the card queries: a refetch there would make a new intent). */
const BILLING: QueryKey[] = [
  ['account-plan'],
  ['connect', 'available'],
  ['payment', 'invoices'],
  ['application-manager', 'usage'],
];
const TOKENS: QueryKey[] = [
  ['tokenise', 'tokens'],
  ['tokenise', 'token'],
  ['account-plan'],
  ['application-manager', 'usage'],
];
const USAGE: QueryKey[] = [['application-manager', 'usage'], ['account-plan']];
const IDENTITY: QueryKey[] = [
  ['connect', 'kyc'],
  ['connect', 'user'],
  ['connect', 'user-routes'],
  ['connect', 'available'],
];
const NETWORKS: QueryKey[] = [['integrate']];
/** The reward state, progress and claims (features/rewards/api/keys.ts). */
const REWARDS: QueryKey[] = [['campaign', 'rewards']];
const EVERYTHING: QueryKey[] = [...BILLING, ...TOKENS, ...IDENTITY, ...NETWORKS, ...REWARDS];

/** The queries a change makes stale; the bell's always (most changes write a notice). */
export function staleKeysOf(change: LiveChange): QueryKey[] {
  const [family] = change.type.split('.');
  const keys =
    change.type === 'resync'
      ? EVERYTHING
      : family === 'order' || family === 'plan' || family === 'card' || family === 'qnt' || family === 'invoice'
        ? BILLING
        : family === 'token'
          ? TOKENS
          : family === 'usage'
            ? USAGE
            : family === 'identity'
              ? IDENTITY
              : family === 'network'
                ? NETWORKS
                : family === 'reward'
                  ? REWARDS
                  : [];
  return [NOTIFICATIONS, ...keys];
}

export type LiveOptions = {
  getAccessToken?: () => Promise<string | null>;
  fetch?: typeof fetch;
  /** The first wait before connecting again, doubled after each failure up to `maxRetryMs`. */
  minRetryMs?: number;
  maxRetryMs?: number;
};

type Frame = { event: string; data: Record<string, unknown> | null };

/** Splits a stream of SSE text into frames (comments, the heartbeats, come as `comment`). */
async function* framesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
      let at;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        let event = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event = 'comment';
          else if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data += line.slice(5).trim();
        }
        let parsed: Record<string, unknown> | null = null;
        try {
          parsed = data ? (JSON.parse(data) as Record<string, unknown>) : null;
        } catch {
          parsed = null;
        }
        yield { event, data: parsed };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Keeps the stream open until `signal` aborts (the signed-in shell unmounts: sign-out) or the
 * session ends (no token, 403, or the server's `end` of a signed-out session). Connects again after
 * a failure with backoff (with jitter), at once after a token expired; a connection that stays
 * silent past two heartbeats is dropped and made again. After a reconnection, everything it shows
 * is read again: changes may have come meanwhile.
 */
export async function watchLiveChanges(
  queryClient: QueryClient,
  signal: AbortSignal,
  options: LiveOptions = {},
): Promise<void> {
  const getToken = options.getAccessToken ?? currentAccessToken;
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const minRetryMs = options.minRetryMs ?? 1_000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let retryMs = minRetryMs;
  let isFirst = true;

  // Changes that come together are read once: the keys are gathered for a moment.
  const pending = new Map<string, QueryKey>();
  let flush: ReturnType<typeof setTimeout> | undefined;
  const markStale = (keys: QueryKey[]) => {
    for (const key of keys) pending.set(JSON.stringify(key), key);
    flush ??= setTimeout(() => {
      flush = undefined;
      const keys = [...pending.values()];
      pending.clear();
      if (signal.aborted) return;
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
    }, 50);
  };

  while (!signal.aborted) {
    let token: string | null;
    try {
      token = await getToken();
    } catch {
      token = null;
    }
    if (!token || signal.aborted) return;
    const connection = new AbortController();
    const stop = () => connection.abort();
    signal.addEventListener('abort', stop, { once: true });
    let again: 'now' | 'later' | 'never' = 'later';
    try {
      const res = await doFetch('/api/connect/live', {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        cache: 'no-store',
        signal: connection.signal,
      });
      if (res.status === 403) again = 'never';
      else if (res.ok && res.body) {
        let silentFor = 45_000;
        let watchdog = setTimeout(stop, silentFor);
        for await (const frame of framesOf(res.body)) {
          clearTimeout(watchdog);
          watchdog = setTimeout(stop, silentFor);
          if (frame.event === 'ready') {
            retryMs = minRetryMs;
            const heartbeatMs = Number(frame.data?.heartbeatMs);
            if (heartbeatMs > 0) silentFor = heartbeatMs * 2 + 5_000;
            if (!isFirst) markStale(staleKeysOf({ type: 'resync' }));
            isFirst = false;
          } else if (frame.event === 'change' && typeof frame.data?.type === 'string') {
            markStale(staleKeysOf(frame.data as LiveChange));
          } else if (frame.event === 'end') {
            const code = frame.data?.code;
            again =
              code === 'SESSION_SIGNED_OUT' || code === 'USER_REMOVED'
                ? 'never'
                : code === 'TOKEN_EXPIRED'
                  ? 'now'
                  : 'later';
            break;
          }
        }
        clearTimeout(watchdog);
      }
    } catch {
      // A network failure, or the connection dropped: connect again later.
    } finally {
      signal.removeEventListener('abort', stop);
      connection.abort();
    }
    if (again === 'never' || signal.aborted) return;
    if (again === 'now') continue;
    await sleep(retryMs / 2 + Math.random() * (retryMs / 2), signal);
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }
}

/**
 * Opens the account's change stream while the signed-in shell is shown (mounted once, in the main
 * layout) and closes it when it goes (sign-out).
 */
export function useLiveChanges(options?: LiveOptions): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    void watchLiveChanges(queryClient, controller.signal, options);
    return () => controller.abort();
    // The options are fixed for the shell's life (tests pass their fakes once).
  }, [queryClient]);
}
