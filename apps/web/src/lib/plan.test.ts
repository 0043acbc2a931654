import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '@connect/shared';
import { planInfoQuery } from './plan.ts';

vi.mock('./auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'access-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('planInfoQuery', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("reads the caller's plan from the account-plan service with the access token", async () => {
    fetchMock.mockResolvedValue(json({ name: 'Trial', status: 'PENDING', credits: 10, renewsAt: null }));
    const client = new QueryClient();
    const plan = await client.fetchQuery(planInfoQuery());
    expect(plan).toEqual({ name: 'Trial', status: 'PENDING', credits: 10, renewsAt: null });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/account-plan/user-plan');
    expect(init?.method).toBe('GET');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer access-token');
  });

  it('rejects an answer that is not plan info', async () => {
    fetchMock.mockResolvedValue(json({ name: 'Trial', status: 'SOMETHING' }));
    await expect(new QueryClient().fetchQuery({ ...planInfoQuery(), retry: false })).rejects.toThrow();
  });

  it('refreshes every 10 minutes (spec §9: 600000 ms)', () => {
    expect(LIMITS.planRefreshMs).toBe(600_000);
    expect(planInfoQuery().refetchInterval).toBe(600_000);
    expect(planInfoQuery().staleTime).toBe(600_000);
  });
});
