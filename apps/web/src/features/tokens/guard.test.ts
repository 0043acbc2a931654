import { describe, expect, it, vi } from 'vitest';
import { PROBLEMS, type ProblemCode } from '@connect/shared';
import { setUpGuardSuite } from '../../test/guard-suite.ts';
import { createSmartContractGuard } from './guard.ts';
import { json, LOCATION, tokensPage, USER } from './test-data.ts';

vi.mock('../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

/** The server refuses the locations with this code, worded as the catalogue words it. */
function refuseLocations(fetchMock: ReturnType<typeof setUpGuardSuite>, code: ProblemCode, body: object = { code }) {
  fetchMock.mockImplementation(async (input) =>
    String(input) === '/api/tokenise/tokens'
      ? json(tokensPage([]))
      : json({ status: PROBLEMS[code].status, title: 'Conflict', detail: PROBLEMS[code].message, ...body }, 409),
  );
}

/** The guard of the token creation page (spec §5), deciding from the problem's code. */
describe('createSmartContractGuard', () => {
  const fetchMock = setUpGuardSuite(USER);

  it('lets a user with quota and networks through', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/tokenise/tokens' ? json(tokensPage([])) : json({ locations: [LOCATION] }),
    );
    expect(await createSmartContractGuard()).toBeNull();
  });

  it('sends a user whose plan allows no more tokens to Token Flow, and one without networks to My networks', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/tokenise/tokens'
        ? json(tokensPage([], { quota: { deployed: 3, allowed: 3 } }))
        : json({ locations: [LOCATION] }),
    );
    expect((await createSmartContractGuard())?.headers.get('location')).toBe('/acme-flows/token-flow?notice=quota');
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/tokenise/tokens' ? json(tokensPage([])) : json({ locations: [] }),
    );
    expect((await createSmartContractGuard())?.headers.get('location')).toBe('/my-networks?configureNetworks=true');
  });

  it.each([
    ['NETWORKS_NOT_CONFIGURED', '/my-networks?configureNetworks=true'],
    ['TOKEN_QUOTA_REACHED', '/acme-flows/token-flow?notice=quota'],
    ['IDENTITY_VERIFICATION_REQUIRED', '/acme-flows/kyc'],
    ['IDENTITY_VERIFICATION_PENDING', '/acme-flows/kyc'],
  ] as const)('sends the user on for %s', async (code, location) => {
    refuseLocations(fetchMock, code);
    const response = await createSmartContractGuard();
    expect(response?.status).toBe(302);
    expect(response?.headers.get('location')).toBe(location);
  });

  it('lets the page show any other refusal, even one worded like a guard’s', async () => {
    refuseLocations(fetchMock, 'NETWORKS_NOT_CONFIGURED', { code: undefined });
    expect(await createSmartContractGuard()).toBeNull();
  });
});
