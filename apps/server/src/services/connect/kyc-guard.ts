import type { KycStatus } from '@connect/shared';
import { problem } from '../../lib/errors.ts';

/** True when the user's identity is verified (spec §4 onfidoApplicantStatus VERIFIED). */
export function isIdentityVerified(user: { kycStatus: KycStatus }): boolean {
  return user.kycStatus === 'VERIFIED';
}

/**
 * Spec §5: mainnet networks, mainnet applications and mainnet tokens require completed identity
 * verification. Services call this before anything mainnet, with the request's user:
 *
 *   requireVerifiedIdentity(callerOf(request));
 *
 * It answers 409 rather than 403 because a 403 signs the SPA out (spec §8); the detail says what
 * to do, and while a check is pending, that it is pending.
 */
export function requireVerifiedIdentity(user: { kycStatus: KycStatus }): void {
  if (isIdentityVerified(user)) return;
  throw problem(user.kycStatus === 'PENDING' ? 'IDENTITY_VERIFICATION_PENDING' : 'IDENTITY_VERIFICATION_REQUIRED');
}
