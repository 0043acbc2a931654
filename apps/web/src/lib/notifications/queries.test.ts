import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_POLL_MS, type TNotificationsResponse } from '@connect/shared';
import { notificationsQuery, withRead } from './queries.ts';

vi.mock('../auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const item = (id: string, readAt: string | null) => ({
  id,
  kind: 'token.deployed',
  title: 'Token deployed',
  body: 'Live.',
  link: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  readAt,
});
const A = '0b7d4c1e-0000-4000-8000-00000000000a';
const B = '0b7d4c1e-0000-4000-8000-00000000000b';
const C = '0b7d4c1e-0000-4000-8000-00000000000c';

describe('notificationsQuery', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks the connect service for the newest 20 with the access token', async () => {
    fetchMock.mockResolvedValue(json({ items: [item(A, null)], unread: 1 }));
    const data = await new QueryClient().fetchQuery(notificationsQuery());
    expect(data.unread).toBe(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/connect/notifications?limit=20');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer access-token');
  });

  it('rejects an answer that is not a notification list', async () => {
    fetchMock.mockResolvedValue(json({ items: [{ id: 'nope' }], unread: 1 }));
    await expect(new QueryClient().fetchQuery({ ...notificationsQuery(), retry: false })).rejects.toThrow();
  });

  it('polls every NOTIFICATION_POLL_MS only while the tab is visible, and asks again when it comes back', () => {
    const options = notificationsQuery();
    expect(options.refetchInterval).toBe(NOTIFICATION_POLL_MS);
    expect(options.refetchIntervalInBackground).toBe(false);
    expect(options.refetchOnWindowFocus).toBe(true);
  });
});

describe('withRead', () => {
  const now = new Date('2026-11-25T08:00:00.000Z');
  const list: TNotificationsResponse = {
    items: [item(A, null), item(B, '2026-11-21T10:00:00.000Z'), item(C, null)],
    unread: 5,
  };

  it('marks the given unread ones read now and keeps the others as they were', () => {
    const next = withRead(list, [A, B], 4, now);
    expect(next.unread).toBe(4);
    expect(next.items.map((n) => n.readAt)).toEqual([now.toISOString(), '2026-11-21T10:00:00.000Z', null]);
  });

  it('marks every unread one read when no ids are given', () => {
    const next = withRead(list, undefined, 0, now);
    expect(next.items.map((n) => n.readAt)).toEqual([now.toISOString(), '2026-11-21T10:00:00.000Z', now.toISOString()]);
  });
});
