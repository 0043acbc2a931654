import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchAuthSession = vi.fn();
const signOut = vi.fn();
vi.mock('aws-amplify/auth', () => ({
  fetchAuthSession: (options?: { forceRefresh?: boolean }) => fetchAuthSession(options),
  signOut: (input?: { global?: boolean }) => signOut(input),
}));
vi.mock('aws-amplify', () => ({ Amplify: { configure: vi.fn() } }));

const { currentAccessToken, signOutEverywhere } = await import('./amplify-auth.ts');

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

function sessionWith(accessToken: string, expiresInSeconds: number) {
  return {
    tokens: {
      accessToken: { payload: { exp: Math.floor(NOW / 1000) + expiresInSeconds }, toString: () => accessToken },
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

describe('signOutEverywhere (issue 11: sign-out reaches the API)', () => {
  // What happened, in order: the API's sign-out call and Amplify's sign-out.
  let calls: string[];
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    calls = [];
    fetchAuthSession.mockReset();
    fetchAuthSession.mockResolvedValue(sessionWith('the-access-token', 3600));
    signOut.mockReset();
    signOut.mockImplementation(async (input?: { global?: boolean }) => {
      calls.push(input?.global ? 'amplify global sign-out' : 'amplify local sign-out');
    });
    fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      return new Response(null, { status: 204 });
    });
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.setItem('userUuid', 'u-1');
    sessionStorage.setItem('role', 'INDIVIDUAL');
    localStorage.setItem('skipMfa', 'true');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const expectSignedOutHere = () => {
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.length).toBe(0);
  };

  it("signs out through the API with the session's token first, then clears Amplify's session here", async () => {
    await signOutEverywhere();
    expect(calls).toEqual(['POST /api/connect/sign-out', 'amplify local sign-out']);
    const init = fetchMock.mock.calls[0]![1] as RequestInit;
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer the-access-token');
    expectSignedOutHere();
  });

  it.each([
    ['the API refuses', () => new Response(JSON.stringify({ status: 503 }), { status: 503 })],
    [
      'the API cannot be reached',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('still signs out when %s: the pool is asked directly and the session cleared', async (_case, answer) => {
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      calls.push(`${init.method} ${url}`);
      return answer();
    });
    await signOutEverywhere();
    expect(calls).toEqual(['POST /api/connect/sign-out', 'amplify global sign-out']);
    expectSignedOutHere();
  });

  it('still signs out when there is no session to send, and when Amplify fails', async () => {
    fetchAuthSession.mockRejectedValue(Object.assign(new Error('Refresh Token has been revoked'), { name: 'x' }));
    signOut.mockRejectedValueOnce(new Error('network'));
    await signOutEverywhere();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(calls).toEqual(['amplify local sign-out']);
    expectSignedOutHere();
  });
});
