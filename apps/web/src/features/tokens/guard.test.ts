import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROBLEMS, type ProblemCode } from '@connect/shared';
import { queryClient } from '../../lib/query-client.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { session } from '../../lib/storage.ts';
import { TEST_RUNTIME_CONFIG } from '../../test/render.tsx';
import { createSmartContractGuard } from './guard.ts';
import { json, LOCATION, tokensPage, USER } from './test-data.ts';

vi.mock('../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const fetchMock = vi.fn<typeof fetch>();

/** The server refuses the locations with this code, worded as the catalogue words it. */
function refuseLocations(code: ProblemCode, body: object = { code }) {
  fetchMock.mockImplementation(async (input) =>
    String(input) === '/api/tokenise/tokens'
      ? json(tokensPage([]))
      : json({ status: PROBLEMS[code].status, title: 'Conflict', detail: PROBLEMS[code].message, ...body }, 409),
  );
}

/** The guard of the token creation page (spec §5), deciding from the problem's code. */
describe('createSmartContractGuard', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    setRuntimeConfig({ ...TEST_RUNTIME_CONFIG, productSlug: 'acme' });
    session.setMarker(USER.id, USER.role);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    queryClient.clear();
    sessionStorage.clear();
  });

  it('lets a user with quota and networks through', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/tokenise/tokens' ? json(tokensPage([])) : json({ locations: [LOCATION] }),
    );
    expect(await createSmartContractGuard()).toBeNull();
  });

  it.each([
    ['NETWORKS_NOT_CONFIGURED', '/my-networks?configureNetworks=true'],
    ['TOKEN_QUOTA_REACHED', '/acme-flows/token-flow?notice=quota'],
    ['IDENTITY_VERIFICATION_REQUIRED', '/acme-flows/kyc'],
    ['IDENTITY_VERIFICATION_PENDING', '/acme-flows/kyc'],
  ] as const)('sends the user on for %s', async (code, location) => {
    refuseLocations(code);
    const response = await createSmartContractGuard();
    expect(response?.status).toBe(302);
    expect(response?.headers.get('location')).toBe(location);
  });

  it('lets the page show any other refusal, even one worded like a guard’s', async () => {
    refuseLocations('NETWORKS_NOT_CONFIGURED', { code: undefined });
    expect(await createSmartContractGuard()).toBeNull();
  });
});
