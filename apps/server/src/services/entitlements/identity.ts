import type { KycStatus } from '@connect/shared';
import { problem } from '../../lib/errors.ts';

/*
 * Mainnet access and identity (spec §5): mainnet networks, mainnet applications and mainnet
 * tokens need a completed identity verification, whatever the plan. An entitlement like the
 * others, but of the user rather than the account, so it is answered from the user the request
 * carries (or the status read now, where a stale second matters: integrate's activation).
 */

/** True when the user's identity is verified (spec §4 onfidoApplicantStatus VERIFIED). */
export function isIdentityVerified(user: { kycStatus: KycStatus }): boolean {
  return user.kycStatus === 'VERIFIED';
}

/** Whether this user must verify their identity before using a network of this type. */
export function needsIdentityFor(networkType: string, user: { kycStatus: KycStatus }): boolean {
  return networkType === 'mainnet' && !isIdentityVerified(user);
}

/**
 * Refuses anything mainnet to a user whose identity is not verified. Services call this before
 * anything mainnet, with the request's user:
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
