import type { TUser } from '@connect/shared';
import { MFA_OFF, TEST_USER } from '../../../test/fixtures.ts';

/** A freshly signed-up individual user, as GET /user/{id} answers it. */
export const NEW_USER: TUser = {
  ...TEST_USER,
  firstName: null,
  lastName: null,
  organisationName: null,
  organisationLocation: null,
  industry: null,
  companySize: null,
  hearAboutUs: null,
  hearAboutUsDescription: null,
  acceptedTerms: false,
  acceptedTermsVersion: null,
  ...MFA_OFF,
};

export { json } from '../../../test/fixtures.ts';
