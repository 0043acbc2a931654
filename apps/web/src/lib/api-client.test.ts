import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, createApiClient } from './api-client.ts';

function jsonResponse(status: number, body: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

type FetchMock = ReturnType<typeof vi.fn<(url: string, init: RequestInit) => Promise<Response>>>;

function setup(response: Response | (() => Promise<Response>), accessToken: string | null = 'token-1') {
  const fetch: FetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
    typeof response === 'function' ? response() : response,
  );
  const onSessionLost = vi.fn();
  const onStaffMfaRequired = vi.fn();
  const api = createApiClient({
    getAccessToken: async () => accessToken,
    onSessionLost,
    onStaffMfaRequired,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
  return { api, fetch, onSessionLost, onStaffMfaRequired };
}

describe('request layer (spec §7, §8)', () => {
  it('calls /api/{service} with JSON, credentials and the access token as bearer', async () => {
    const { api, fetch } = setup(jsonResponse(200, { ok: true }));
    await api.accountPlan.put('/user', { a: 1 }, { query: { page: 0, status: ['ACTIVE', 'PENDING'], empty: '' } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/account-plan/user?page=0&status=ACTIVE&status=PENDING');
    expect(init).toMatchObject({ method: 'PUT', credentials: 'include', body: '{"a":1}' });
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-1', 'content-type': 'application/json' });
  });

  it('validates the response with the given schema', async () => {
    const { api } = setup(jsonResponse(200, { id: 7 }));
    await expect(api.connect.get('/x', { schema: z.object({ id: z.string() }) })).rejects.toThrow();
  });

  it.each([403, 508, 512, 514])('ends the session on %i', async (status) => {
    const { api, onSessionLost } = setup(jsonResponse(status, { detail: 'no' }));
    await expect(api.connect.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(onSessionLost).toHaveBeenCalledOnce();
  });

  it('sends a staff user without MFA to set it up, without ending the session (issue 32 §1)', async () => {
    const { api, onSessionLost, onStaffMfaRequired } = setup(
      jsonResponse(409, { status: 409, code: 'STAFF_MFA_REQUIRED', detail: 'Set up MFA first.' }),
    );
    const error = await api.connect.get('/management/users').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('STAFF_MFA_REQUIRED');
    expect(onStaffMfaRequired).toHaveBeenCalledOnce();
    expect(onSessionLost).not.toHaveBeenCalled();
    // Another conflict is only an error.
    const other = setup(jsonResponse(409, { status: 409, code: 'LAST_ADMIN', detail: 'No.' }));
    await expect(other.api.connect.delete('/management/user', {})).rejects.toThrow('No.');
    expect(other.onStaffMfaRequired).not.toHaveBeenCalled();
  });

  it('keeps the session on other errors', async () => {
    const { api, onSessionLost } = setup(jsonResponse(404, { detail: 'Not here' }));
    await expect(api.connect.get('/x')).rejects.toThrow('Not here');
    expect(onSessionLost).not.toHaveBeenCalled();
  });

  it('ends the session when no access token can be had, without calling the server', async () => {
    const { api, fetch, onSessionLost } = setup(jsonResponse(200, {}), null);
    await expect(api.connect.get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(onSessionLost).toHaveBeenCalledOnce();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows the first invalid parameter, else the message, else a generic text (spec §8)', async () => {
    const first = setup(
      jsonResponse(400, { detail: 'd', invalidParams: [{ name: 'name', reason: 'Please enter an application name' }] }),
    );
    await expect(first.api.connect.post('/x', {})).rejects.toThrow('Please enter an application name');
    const second = setup(jsonResponse(409, { message: 'This application name already exists!' }));
    await expect(second.api.connect.post('/x', {})).rejects.toThrow('This application name already exists!');
    const third = setup(async () => {
      throw new TypeError('network down');
    });
    await expect(third.api.connect.get('/x')).rejects.toThrow('Something went wrong! please try again.');
    // An error answer without any message (a 5xx body carries only a request id) reads the same.
    const fourth = setup(jsonResponse(500, { status: 500, requestId: 'r-1' }));
    const error = await fourth.api.connect.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Something went wrong! please try again.');
    expect((error as ApiError).status).toBe(500);
  });

  it('carries the problem’s code, or none when the answer has no known code', async () => {
    const coded = setup(jsonResponse(409, { status: 409, code: 'TOKEN_QUOTA_REACHED', detail: 'No quota' }));
    const error = await coded.api.tokenise.get('/x').catch((e: unknown) => e);
    expect((error as ApiError).code).toBe('TOKEN_QUOTA_REACHED');
    const uncoded = setup(jsonResponse(502, { detail: 'Bad gateway' }));
    expect(((await uncoded.api.tokenise.get('/x').catch((e: unknown) => e)) as ApiError).code).toBeNull();
  });

  it('gives up after the timeout', async () => {
    const fetch = vi.fn(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('timeout', 'TimeoutError')));
        }),
    );
    const api = createApiClient({
      getAccessToken: async () => 't',
      onSessionLost: vi.fn(),
      fetch: fetch as never,
      timeoutMs: 20,
    });
    await expect(api.connect.get('/slow')).rejects.toThrow('Something went wrong! please try again.');
  });

  it('sends no access token for anonymous calls', async () => {
    const { api, fetch } = setup(jsonResponse(200, {}), null);
    await api.connect.get('/captcha/challenge', { anonymous: true });
    expect(fetch.mock.calls[0]![1].headers).not.toHaveProperty('authorization');
  });
});
