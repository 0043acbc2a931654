import type { TUser } from '@connect/shared';

/** A freshly signed-up individual user, as GET /user/{id} answers it. */
export const NEW_USER: TUser = {
  id: '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f',
  sub: '5f0c6a2e-1111-4c3b-9d7e-0a1b2c3d4e5f',
  accountId: '6a1d7b3f-2222-4d4c-8e8f-1b2c3d4e5f60',
  email: 'ada@example.com',
  role: 'INDIVIDUAL',
  status: 'ACTIVE',
  firstName: null,
  lastName: null,
  organisationName: null,
  organisationLocation: null,
  industry: null,
  companySize: null,
  hearAboutUs: null,
  hearAboutUsDescription: null,
  promotionalEmails: false,
  acceptedTerms: false,
  acceptedTermsVersion: null,
  latestTerms: '2026-10-01',
  mfaSetup: false,
  mfaConfirm: false,
  userMfaStatus: 'DISABLED',
  onfidoApplicantStatus: 'UNVERIFIED',
  createdAt: '2026-11-01T10:00:00.000Z',
};

export { json } from '../../../test/fixtures.ts';
