import { z } from 'zod';
import { KYC_STATUSES, type KycStatus } from './constants.ts';
import { FIELD_MESSAGES } from './messages.ts';
import { PROBLEMS } from './problem-codes.ts';

/** Who verifies identities: Onfido when configured, otherwise the embedded sandbox. */
export const KYC_PROVIDERS = ['onfido', 'sandbox'] as const;
export type KycProviderName = (typeof KYC_PROVIDERS)[number];

/** Outcomes a tester can choose in the sandbox form; they mirror Onfido's check results. */
export const KYC_SANDBOX_OUTCOMES = ['clear', 'consider'] as const;
export type KycSandboxOutcome = (typeof KYC_SANDBOX_OUTCOMES)[number];

/** Why a check ended FAILED; the SPA words each one (locales/en/kyc.json). */
export const KYC_FAILURE_REASONS = ['NAME_MISMATCH', 'DOCUMENT_REJECTED', 'CHECK_WITHDRAWN'] as const;
export type KycFailureReason = (typeof KYC_FAILURE_REASONS)[number];

/** Messages of the identity rules (spec §5), shared by the server's problems and the SPA. */
export const KYC_MESSAGES = {
  namesMissing: PROBLEMS.KYC_NAMES_MISSING.message,
  alreadyVerified: PROBLEMS.KYC_ALREADY_VERIFIED.message,
  checkInProgress: PROBLEMS.KYC_CHECK_IN_PROGRESS.message,
  sandboxOnly: PROBLEMS.KYC_SANDBOX_ONLY.message,
  unavailable: PROBLEMS.KYC_UNAVAILABLE.message,
  mainnetRequiresVerification: PROBLEMS.IDENTITY_VERIFICATION_REQUIRED.message,
  mainnetVerificationPending: PROBLEMS.IDENTITY_VERIFICATION_PENDING.message,
} as const;

const documentName = z
  .string({ error: FIELD_MESSAGES.required })
  .trim()
  .min(1, { message: FIELD_MESSAGES.required })
  .max(100, { message: FIELD_MESSAGES.tooLong(100) });

/**
 * POST /kyc/create-check. With Onfido the body is empty: the document and selfie were uploaded
 * through the Onfido SDK with the token of GET /kyc/token. The sandbox has no SDK, so the tester
 * types the names "printed on the document" and chooses the outcome here.
 */
export const ZCreateKycCheckRequest = z
  .object({
    sandbox: z
      .object({
        documentFirstName: documentName,
        documentLastName: documentName,
        outcome: z.enum(KYC_SANDBOX_OUTCOMES, { error: FIELD_MESSAGES.required }),
      })
      .optional(),
  })
  .meta({ id: 'CreateKycCheckRequest' });
export type TCreateKycCheckRequest = z.infer<typeof ZCreateKycCheckRequest>;

/** The sandbox form of the verification page (the same rules as the request's `sandbox` part). */
export const ZKycSandboxForm = z.object({
  documentFirstName: documentName,
  documentLastName: documentName,
  outcome: z.enum(KYC_SANDBOX_OUTCOMES, { error: FIELD_MESSAGES.required }),
});
export type TKycSandboxForm = z.infer<typeof ZKycSandboxForm>;

/** GET /kyc/token: what the browser needs to start the provider's capture (spec §7). */
export const ZKycSdkToken = z
  .object({
    provider: z.enum(KYC_PROVIDERS),
    isSandbox: z.boolean(),
    applicantId: z.string(),
    /** The SDK token (Onfido web SDK `token`); short-lived. */
    token: z.string(),
    /** Onfido's data region (EU, US, CA); absent for the sandbox. */
    region: z.string().optional(),
  })
  .meta({ id: 'KycSdkToken' });
export type TKycSdkToken = z.infer<typeof ZKycSdkToken>;

export const ZKycCheck = z
  .object({
    id: z.uuid(),
    status: z.enum(['PENDING', 'VERIFIED', 'FAILED']),
    provider: z.enum(KYC_PROVIDERS),
    reason: z.enum(KYC_FAILURE_REASONS).nullable(),
    documentFirstName: z.string().nullable(),
    documentLastName: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'KycCheck' });
export type TKycCheck = z.infer<typeof ZKycCheck>;

/** GET /kyc/status and POST /kyc/create-check: the caller's status (onfidoApplicantStatus) and latest check. */
export const ZKycStatusResponse = z
  .object({
    status: z.enum(KYC_STATUSES),
    provider: z.enum(KYC_PROVIDERS),
    isSandbox: z.boolean(),
    /** False when no check can start here (production without Onfido and without KYC_SANDBOX=on). */
    isAvailable: z.boolean(),
    check: ZKycCheck.nullable(),
  })
  .meta({ id: 'KycStatusResponse' });
export type TKycStatusResponse = z.infer<typeof ZKycStatusResponse>;

/** A new check may start only from these statuses (FAILED allows retry, spec §4). */
export function canStartKycCheck(status: KycStatus): boolean {
  return status === 'UNVERIFIED' || status === 'FAILED';
}

/**
 * Spec §5: the profile's first and last name must match the identity document exactly. Spaces
 * around and inside names and the Unicode form do not count; letter case does not either, since
 * documents print names in capitals (docs/decisions/identity-and-sign-in.md, "Identity verification").
 */
export function kycNameMatches(profileName: string | null | undefined, documentName: string | null | undefined) {
  if (!profileName || !documentName) return false;
  const canonical = (value: string) => value.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleUpperCase('en');
  return canonical(profileName) === canonical(documentName);
}
