import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { staleKeysOf, useLiveChanges } from './live-changes.ts';

vi.mock('./auth.ts', () => ({ currentAccessToken: vi.fn(async () => 'access-token') }));

/** A fake server stream the test writes frames into. */
function serverStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    /** Whether the client holds the stream's reader (it lets go when it is done with the connection). */
    isRead: () => body.locked,
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send: (event: string, data: unknown) =>
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    close: () => controller.close(),
  };
}

function setUp(fetchMock: typeof fetch, getAccessToken = async () => 'token-1' as string | null) {
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useLiveChanges({ fetch: fetchMock, getAccessToken, minRetryMs: 10, maxRetryMs: 40 }), {
    wrapper,
  });
  const staleKeys = () => invalidate.mock.calls.map(([filters]) => JSON.stringify(filters?.queryKey));
  return { hook, invalidate, staleKeys };
}

describe('useLiveChanges', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('opens the stream with the bearer token in the header, never in the URL', async () => {
    const stream = serverStream();
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(stream.response);
    const { hook } = setUp(fetchMock);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/connect/live');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer token-1');
    hook.unmount();
    expect(init?.signal?.aborted).toBe(true);
  });

  it('makes the order, plan, invoice and bell queries stale when a receipt is recorded', async () => {
    const stream = serverStream();
    const { staleKeys } = setUp(vi.fn<typeof fetch>().mockResolvedValue(stream.response));
    await waitFor(() => stream.send('ready', { heartbeatMs: 15_000 }));
    stream.send('change', { type: 'order.paid', orderId: 'o-1' });
    await waitFor(() =>
      expect(staleKeys()).toEqual(
        expect.arrayContaining([
          '["account-plan"]',
          '["payment","invoices"]',
          '["connect","notifications"]',
          '["connect","available"]',
        ]),
      ),
    );
    // Never the card queries: a refetch there would make a new payment intent.
    expect(staleKeys()).not.toContain('["payment"]');
  });

  it('connects again with backoff after the stream drops, and reads everything again', async () => {
    const first = serverStream();
    const second = serverStream();
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(first.response)
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(second.response);
    const { staleKeys } = setUp(fetchMock);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    first.send('ready', { heartbeatMs: 15_000 });
    first.close();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    second.send('ready', { heartbeatMs: 15_000 });
    await waitFor(() =>
      expect(staleKeys()).toEqual(expect.arrayContaining(['["tokenise","tokens"]', '["account-plan"]'])),
    );
  });

  it('stops when the server ends a signed-out session, and when there is no token', async () => {
    // Fake timers moved well past the longest retry (40 ms): a connection made again would be made by then.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const stream = serverStream();
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(stream.response);
    setUp(fetchMock);
    await waitFor(() => expect(stream.isRead()).toBe(true));
    stream.send('end', { code: 'SESSION_SIGNED_OUT' });
    await waitFor(() => expect(stream.isRead()).toBe(false));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const none = vi.fn<typeof fetch>();
    const noToken = vi.fn(async () => null);
    setUp(none, noToken);
    await waitFor(() => expect(noToken).toHaveBeenCalled());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(none).not.toHaveBeenCalled();
  });

  it('connects again at once with a fresh token when the old one expired', async () => {
    const first = serverStream();
    const second = serverStream();
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(first.response)
      .mockResolvedValueOnce(second.response);
    let n = 0;
    setUp(fetchMock, async () => `token-${++n}`);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    first.send('end', { code: 'TOKEN_EXPIRED' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(new Headers(fetchMock.mock.calls[1]![1]?.headers).get('authorization')).toBe('Bearer token-2');
  });
});

describe('staleKeysOf', () => {
  it('answers the bell and the queries of each family', () => {
    expect(staleKeysOf({ type: 'token.deployed', tokenId: 't' })).toContainEqual(['tokenise', 'token']);
    expect(staleKeysOf({ type: 'identity.verified' })).toContainEqual(['connect', 'kyc']);
    expect(staleKeysOf({ type: 'reward.progress' })).toContainEqual(['campaign', 'rewards']);
    expect(staleKeysOf({ type: 'something.new' })).toEqual([['connect', 'notifications']]);
  });
});
