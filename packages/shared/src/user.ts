import { z } from 'zod';
import {
  COMPANY_SIZES,
  HEAR_ABOUT_US,
  HEAR_ABOUT_US_WITH_DESCRIPTION,
  KYC_STATUSES,
  MFA_STATUSES,
  ROLES,
  USER_STATUSES,
} from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';

const required = (max: number) =>
  z
    .string({ error: FIELD_MESSAGES.required })
    .trim()
    .min(1, { message: FIELD_MESSAGES.required })
    .max(max, { message: FIELD_MESSAGES.tooLong(max) });

/** The portal user as the connect service returns it (spec §3, User). */
export const ZUser = z
  .object({
    id: z.uuid(),
    sub: z.uuid(),
    accountId: z.uuid(),
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(USER_STATUSES),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    organisationName: z.string().nullable(),
    organisationLocation: z.string().nullable(),
    industry: z.string().nullable(),
    companySize: z.string().nullable(),
    hearAboutUs: z.string().nullable(),
    hearAboutUsDescription: z.string().nullable(),
    promotionalEmails: z.boolean(),
    acceptedTerms: z.boolean(),
    acceptedTermsVersion: z.string().nullable(),
    latestTerms: z.string().nullable(),
    mfaSetup: z.boolean(),
    mfaConfirm: z.boolean(),
    userMfaStatus: z.enum(MFA_STATUSES),
    onfidoApplicantStatus: z.enum(KYC_STATUSES),
    createdAt: z.string(),
  })
  .meta({ id: 'User' });
export type TUser = z.infer<typeof ZUser>;

/** Profile form of /user-details (spec §2.1, blank layout). */
export const ZUpdateUserRequest = z
  .object({
    firstName: required(100),
    lastName: required(100),
    organisationName: required(200),
    organisationLocation: required(100),
    industry: required(100),
    companySize: z.enum(COMPANY_SIZES, { error: FIELD_MESSAGES.required }),
    hearAboutUs: z.enum(HEAR_ABOUT_US, { error: FIELD_MESSAGES.required }),
    hearAboutUsDescription: z
      .string()
      .trim()
      .max(500, { message: FIELD_MESSAGES.tooLong(500) })
      .optional(),
  })
  .superRefine((value, ctx) => {
    // "with event/other description": the description is what makes those two answers useful.
    if (
      (HEAR_ABOUT_US_WITH_DESCRIPTION as readonly string[]).includes(value.hearAboutUs) &&
      !value.hearAboutUsDescription
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['hearAboutUsDescription'],
        message: FIELD_MESSAGES.descriptionRequired,
      });
    }
  })
  .meta({ id: 'UpdateUserRequest' });
export type TUpdateUserRequest = z.infer<typeof ZUpdateUserRequest>;

/**
 * PUT /user/identity: the names the identity pool holds too (given_name, family_name), kept in step
 * with it; the same rules as the profile's names. Refused once the identity is verified (spec §5).
 */
export const ZUpdateIdentityRequest = z
  .object({
    firstName: required(100),
    lastName: required(100),
  })
  .meta({ id: 'UpdateIdentityRequest' });
export type TUpdateIdentityRequest = z.infer<typeof ZUpdateIdentityRequest>;

export const ZCompanyDetailsRequest = z
  .object({
    organisationName: required(200),
    organisationLocation: required(100),
    industry: required(100),
    companySize: z.enum(COMPANY_SIZES, { error: FIELD_MESSAGES.required }),
  })
  .meta({ id: 'CompanyDetailsRequest' });
export type TCompanyDetailsRequest = z.infer<typeof ZCompanyDetailsRequest>;

export const ZUserSettingsRequest = z
  .object({
    promotionalEmails: z.boolean(),
  })
  .meta({ id: 'UserSettingsRequest' });
export type TUserSettingsRequest = z.infer<typeof ZUserSettingsRequest>;

export const ZMfaStatus = z
  .object({
    mfaSetup: z.boolean(),
    mfaConfirm: z.boolean(),
    userMfaStatus: z.enum(MFA_STATUSES),
  })
  .meta({ id: 'MfaStatus' });
export type TMfaStatus = z.infer<typeof ZMfaStatus>;

export function mfaStatusOf(mfaSetup: boolean, mfaConfirm: boolean) {
  if (mfaSetup && mfaConfirm) return 'ACTIVE' as const;
  if (mfaSetup) return 'SETUP' as const;
  return 'DISABLED' as const;
}

// In a module without zod, so the web's route gate can use it without loading the schemas.
export { isProfileComplete, PROFILE_FIELDS } from './profile.ts';

export const ZTermsVersion = z
  .object({
    version: z.string(),
    title: z.string(),
    url: z.string(),
    publishedAt: z.string(),
  })
  .meta({ id: 'TermsVersion' });
export type TTermsVersion = z.infer<typeof ZTermsVersion>;

export const ZAcceptTermsRequest = z
  .object({
    version: z
      .string({ error: FIELD_MESSAGES.required })
      .trim()
      .min(1, { message: FIELD_MESSAGES.required })
      .max(50, { message: FIELD_MESSAGES.tooLong(50) }),
  })
  .meta({ id: 'AcceptTermsRequest' });
export type TAcceptTermsRequest = z.infer<typeof ZAcceptTermsRequest>;
