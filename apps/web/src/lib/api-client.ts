import type { z } from 'zod';
import type { ServiceName } from '@connect/shared';
import { LIMITS, MESSAGES, messageFromError, problemCodeOf, type ProblemCode } from '@connect/shared/light';

/**
 * A failed request: the HTTP status, the problem body, its machine `code` (null when the answer
 * carried none: a network failure, a proxy's page) and the message rule of spec §8 — the first
 * invalid-parameter reason, else the response's message, else the generic message. (The source's
 * transport rejected with a bare 'Error' text, but spec §8 says what is *shown* is the generic
 * message, and this message is what pages show.) What to do about a failure is decided from the
 * code in lib/problems.ts.
 */
export class ApiError extends Error {
  readonly code: ProblemCode | null;

  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(messageFromError(body, MESSAGES.generic));
    this.name = 'ApiError';
    this.code = problemCodeOf(body);
  }
}

/** Statuses that end the session (spec §8): log out, clear storage, go to /login. */
export const SESSION_ENDING_STATUSES = [403, 508, 512, 514] as const;

export type ApiClientDeps = {
  /** The current session's access token (refreshed when needed); throws when there is none. */
  getAccessToken: () => Promise<string | null>;
  /** Logs out and sends the user to /login. */
  onSessionLost: () => void;
  /**
   * A staff user without MFA called a management endpoint (409 STAFF_MFA_REQUIRED, issue 32 §1):
   * sends them to set it up. Not a sign-out: the session is fine, the account is not ready.
   */
  onStaffMfaRequired?: () => void;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;
type RequestOptions<T> = {
  query?: Query;
  body?: unknown;
  schema?: z.ZodType<T>;
  anonymous?: boolean;
  signal?: AbortSignal;
};

function toSearch(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    // Arrays as repeated keys (second document §7).
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * The request layer of spec §7: one base per service (`/api/{service}`), JSON, credentials sent,
 * a 30 000 ms timeout, the session's access token in the authorisation header. A missing session,
 * or a 403/508/512/514 answer, ends the session; STAFF_MFA_REQUIRED leads to the MFA set-up.
 */
export function createApiClient(deps: ApiClientDeps) {
  const doFetch = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const timeoutMs = deps.timeoutMs ?? LIMITS.requestTimeoutMs;

  async function request<T>(
    service: ServiceName,
    method: string,
    path: string,
    options: RequestOptions<T> = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (!options.anonymous) {
      let accessToken: string | null = null;
      try {
        accessToken = await deps.getAccessToken();
      } catch {
        accessToken = null;
      }
      if (!accessToken) {
        deps.onSessionLost();
        throw new ApiError(401, { detail: MESSAGES.goBackToLogin });
      }
      headers.authorization = `Bearer ${accessToken}`;
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`/api/${service}${path}${toSearch(options.query)}`, {
        method,
        headers,
        credentials: 'include',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new ApiError(0, { detail: MESSAGES.generic });
    }
    const text = await response.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = { detail: text };
      }
    }
    if (!response.ok) {
      const error = new ApiError(response.status, body);
      if ((SESSION_ENDING_STATUSES as readonly number[]).includes(response.status)) deps.onSessionLost();
      else if (error.code === 'STAFF_MFA_REQUIRED') deps.onStaffMfaRequired?.();
      throw error;
    }
    return options.schema ? options.schema.parse(body) : (body as T);
  }

  const forService = (service: ServiceName) => ({
    get: <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) => request<T>(service, 'GET', path, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
      request<T>(service, 'POST', path, { ...options, body }),
    put: <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
      request<T>(service, 'PUT', path, { ...options, body }),
    delete: <T>(path: string, body?: unknown, options?: RequestOptions<T>) =>
      request<T>(service, 'DELETE', path, { ...options, body }),
  });

  return {
    connect: forService('connect'),
    integrate: forService('integrate'),
    accountPlan: forService('account-plan'),
    applicationManager: forService('application-manager'),
    tokenise: forService('tokenise'),
    bridge: forService('bridge'),
    payment: forService('payment'),
    campaign: forService('campaign'),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
