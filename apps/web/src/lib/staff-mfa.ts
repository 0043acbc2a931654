import type { TUser } from '@connect/shared';
import { isStaffRole } from '@connect/shared/light';

/*
 * Staff accounts must use an authenticator app (issue 32 §1): a QUANT_ADMIN or QUANT_SALES user
 * without MFA sets it up before any page works, and cannot skip it. The spec lets every user skip
 * MFA; this goes beyond it for staff only.
 */

export const isStaffUser = (user: Pick<TUser, 'role'>): boolean => isStaffRole(user.role);

/** A staff user whose authenticator app is not (or no longer) set up and confirmed. */
export const mustSetUpMfa = (user: Pick<TUser, 'role' | 'mfaSetup' | 'mfaConfirm'>): boolean =>
  isStaffUser(user) && !(user.mfaSetup && user.mfaConfirm);
