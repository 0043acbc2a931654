import { describe, expect, it, vi } from 'vitest';
import type { TUser } from '@connect/shared';
import { currentUserQuery } from '../../lib/current-user.ts';
import { queryClient } from '../../lib/query-client.ts';
import { json, MFA_OFF, TEST_USER } from '../../test/fixtures.ts';
import { setUpGuardSuite } from '../../test/guard-suite.ts';
import { selectNetworksGuard } from './guard.ts';

vi.mock('../../lib/auth.ts', () => ({
  currentAccessToken: vi.fn(async () => 'test-token'),
  signOutEverywhere: vi.fn(async () => undefined),
}));

const USER: TUser = {
  ...TEST_USER,
  organisationName: null,
  organisationLocation: null,
  industry: null,
  companySize: null,
  hearAboutUs: null,
  hearAboutUsDescription: null,
  ...MFA_OFF,
};

/** The guard of /my-networks/select-new-networks (spec §5). */
describe('selectNetworksGuard', () => {
  const fetchMock = setUpGuardSuite(USER);

  it('lets a verified user through', async () => {
    queryClient.setQueryData(currentUserQuery(USER.id).queryKey, { ...USER, onfidoApplicantStatus: 'VERIFIED' });
    expect(await selectNetworksGuard()).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends an unverified user to the verification page of the product with selectNetworks=true', async () => {
    queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
    fetchMock.mockImplementation(async () => json({ ...USER, onfidoApplicantStatus: 'PENDING' }));
    const response = await selectNetworksGuard();
    expect(response?.status).toBe(302);
    expect(response?.headers.get('location')).toBe('/acme-flows/kyc?selectNetworks=true');
  });

  it('reads a cached "not verified" again, so a user verified a moment ago passes', async () => {
    queryClient.setQueryData(currentUserQuery(USER.id).queryKey, USER);
    fetchMock.mockImplementation(async () => json({ ...USER, onfidoApplicantStatus: 'VERIFIED' }));
    expect(await selectNetworksGuard()).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith(`/api/connect/user/${USER.id}`, expect.anything());
  });
});
