import type { FeatureName, KycStatus, Role, UserStatus } from '@connect/shared';

/**
 * Features every new account starts with (spec §5, §6). Decided in docs/decisions/identity-and-sign-in.md ("Default
 * account features"). The usage counters (applications:create, tokens:create, bridges:create)
 * keep what the account uses; what it may have is its plan's allowance or its override (the
 * entitlements module), so their rows carry no total. The bridge switch is not among them: an
 * account turns it on by opting in to the Bridges beta feature (Connect Beta, issue 35 §1).
 */
export const DEFAULT_ACCOUNT_FEATURES: { feature: FeatureName; total: number | null }[] = [
  { feature: 'mynetworks:v2', total: null },
  { feature: 'privateNetwork', total: null },
  { feature: 'reward', total: null },
  { feature: 'connectBeta', total: null },
  { feature: 'applications:create', total: null },
  { feature: 'tokens:create', total: null },
  { feature: 'bridges:create', total: null },
];

/**
 * The signed-in portal user as every request sees it: the user row, the organisation fields of
 * the account, and the terms versions the terms guard needs. The auth plugin loads it once per
 * request (repositories/portal-users.ts), so a handler that needs the user (GET /user/{id}) costs
 * no further query.
 */
export type PortalUser = {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  status: UserStatus;
  firstName: string | null;
  lastName: string | null;
  hearAboutUs: string | null;
  hearAboutUsDescription: string | null;
  promotionalEmails: boolean;
  mfaSetup: boolean;
  mfaConfirm: boolean;
  kycStatus: KycStatus;
  createdAt: Date;
  lastLoginAt: Date | null;
  organisationName: string | null;
  organisationLocation: string | null;
  industry: string | null;
  companySize: string | null;
  latestTerms: string | null;
  acceptedTermsVersion: string | null;
};
