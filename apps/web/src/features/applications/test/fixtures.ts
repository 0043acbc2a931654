import { vi } from 'vitest';
import type { TApplication, TApplicationNetwork, TApplicationsPage, TUser } from '@connect/shared';

export const USER: TUser = {
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

export const SEPOLIA: TApplicationNetwork = {
  id: '11111111-1111-4111-8111-111111111111',
  code: 'ethereum-testnet',
  name: 'Ethereum Testnet',
  networkType: 'testnet',
  technology: 'Ethereum',
  chainId: 31337,
  rateLimit: 25,
  isLocal: true,
};
export const AMOY: TApplicationNetwork = {
  ...SEPOLIA,
  id: '22222222-2222-4222-8222-222222222222',
  code: 'polygon-testnet',
  name: 'Polygon Testnet',
  technology: 'Polygon',
  chainId: 31338,
};

export const APPLICATION: TApplication = {
  id: '33333333-3333-4333-8333-333333333333',
  accountId: USER.accountId,
  name: 'Payments API',
  callbackUrl: 'https://example.com/callback',
  applicationType: 'testnet',
  testnetSigning: false,
  clientId: 'abcdefghijklmnopqrstuvwxyz',
  signingServiceName: 'quant-testnet-signing',
  signingKeyId: 'key-44444444-4444-4444-8444-444444444444',
  signingPublicKey: `0x04${'ab'.repeat(64)}`,
  networks: [SEPOLIA],
  secrets: [
    {
      id: '55555555-5555-4555-8555-555555555555',
      hint: 'Wxyz',
      status: 'ACTIVE',
      createdAt: '2026-11-20T10:00:00.000Z',
      expiresAt: null,
      revokedAt: null,
    },
  ],
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

export function page(
  content: TApplication[],
  quota = { used: content.length, total: 3 as number | null },
): TApplicationsPage {
  return { content, totalElements: content.length, totalPages: 1, number: 0, size: 10, quota };
}

export const json = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

export type Handler = (body: unknown, url: URL) => Response;

/** A fetch stand-in answering `METHOD /path` (query ignored) from handlers; records every call. */
export function createFetchMock() {
  const fetchMock = vi.fn<typeof fetch>();
  let handlers: Record<string, Handler> = {};
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const handler = handlers[`${init?.method ?? 'GET'} ${url.pathname}`];
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    return handler ? handler(body, url) : json({ status: 404, title: 'Not Found' }, 404);
  });
  return {
    fetchMock,
    route: (next: Record<string, Handler>) => {
      handlers = next;
    },
    bodies: (key: string) =>
      fetchMock.mock.calls
        .filter(
          ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}` === key,
        )
        .map(([, init]) => (init?.body ? JSON.parse(String(init.body)) : undefined)),
  };
}
