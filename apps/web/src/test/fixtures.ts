import { vi } from 'vitest';
import type { TUser } from '@connect/shared';

/**
 * A signed-up, onboarded individual user with MFA on and identity not verified, as
 * GET /user/{id} answers it. Tests spread it with the fields their case needs.
 */
export const TEST_USER: TUser = {
  id: '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f',
  sub: '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f',
  accountId: '6a1d7b3f-2222-4d4c-8e8f-1b2c3d4e5f60',
  email: 'ada@example.com',
  role: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Analytical Engines Ltd',
  organisationLocation: 'United Kingdom',
  industry: 'Technology',
  companySize: '11-50',
  hearAboutUs: 'EVENT',
  hearAboutUsDescription: 'Devcon',
  promotionalEmails: false,
  acceptedTerms: true,
  acceptedTermsVersion: '2026-10-01',
  latestTerms: '2026-10-01',
  mfaSetup: true,
  mfaConfirm: true,
  userMfaStatus: 'ACTIVE',
  onfidoApplicantStatus: 'UNVERIFIED',
  createdAt: '2026-11-01T10:00:00.000Z',
};

/** The MFA fields of a user who has not set MFA up. */
export const MFA_OFF = { mfaSetup: false, mfaConfirm: false, userMfaStatus: 'DISABLED' } as const;

/** A JSON answer; errors are problem details, as the server sends them. */
export const json = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

export type Handler = (body: unknown, url: URL) => Response;

/**
 * A fetch stand-in answering `METHOD /path` (query ignored) from handlers, the given defaults
 * first; anything else is a 404. Records every call: `bodies('POST /path')` lists what was sent.
 */
export function createFetchMock(defaults: () => Record<string, Handler> = () => ({})) {
  const fetchMock = vi.fn<typeof fetch>();
  let handlers: Record<string, Handler> = defaults();
  const keyOf = (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
  const answer: typeof fetch = async (input, init) => {
    const handler = handlers[keyOf(input, init)];
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    return handler
      ? handler(body, new URL(String(input), 'http://localhost'))
      : json({ status: 404, title: 'Not Found' }, 404);
  };
  fetchMock.mockImplementation(answer);
  return {
    fetchMock,
    /** Answers from the defaults and these handlers (after a `mockReset`, answers again). */
    route: (next: Record<string, Handler>) => {
      handlers = { ...defaults(), ...next };
      fetchMock.mockImplementation(answer);
    },
    bodies: (key: string) =>
      fetchMock.mock.calls
        .filter(([input, init]) => keyOf(input, init) === key)
        .map(([, init]) => (init?.body ? JSON.parse(String(init.body)) : undefined)),
  };
}
