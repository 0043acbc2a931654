import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetchAuthSession = vi.fn();
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: (options?: { forceRefresh?: boolean }) => fetchAuthSession(options),
}));
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const { currentAccessToken } = await import('./amplify-auth.ts');

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

function sessionWith(token: string, expiresInSeconds: number) {
  return {
    tokens: {
      accessToken: { payload: { exp: Math.floor(NOW / 1000) + expiresInSeconds }, toString: () => token },
    },
  };
}

describe('currentAccessToken (spec §4 session refresh, §9 60-second threshold)', () => {
  beforeEach(() => {
    fetchAuthSession.mockReset();
  });

  it('sends the stored token while it has more than 60 seconds left, without refreshing', async () => {
    fetchAuthSession.mockResolvedValueOnce(sessionWith('stored', 61));
    await expect(currentAccessToken(NOW)).resolves.toBe('stored');
    expect(fetchAuthSession).toHaveBeenCalledTimes(1);
    expect(fetchAuthSession).toHaveBeenCalledWith(undefined);
  });

  it.each([60, 10, -5])('refreshes a token with %i seconds left before sending it', async (left) => {
    fetchAuthSession.mockResolvedValueOnce(sessionWith('stale', left));
    fetchAuthSession.mockResolvedValueOnce(sessionWith('fresh', 3600));
    await expect(currentAccessToken(NOW)).resolves.toBe('fresh');
    expect(fetchAuthSession).toHaveBeenLastCalledWith({ forceRefresh: true });
  });

  it('answers null without a session, and when the refresh yields none', async () => {
    fetchAuthSession.mockResolvedValueOnce({});
    await expect(currentAccessToken(NOW)).resolves.toBeNull();
    fetchAuthSession.mockResolvedValueOnce(sessionWith('stale', 0));
    fetchAuthSession.mockResolvedValueOnce({});
    await expect(currentAccessToken(NOW)).resolves.toBeNull();
  });

  it('lets a failed refresh surface, so the request layer ends the session', async () => {
    fetchAuthSession.mockResolvedValueOnce(sessionWith('stale', 0));
    fetchAuthSession.mockRejectedValueOnce(
      Object.assign(new Error('Refresh Token has been revoked'), { name: 'NotAuthorizedException' }),
    );
    await expect(currentAccessToken(NOW)).rejects.toThrow('Refresh Token has been revoked');
  });
});
