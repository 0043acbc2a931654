import type { TUser } from '@connect/shared';
import { paths } from '../../../config/paths.ts';

/**
 * Where a user goes once the profile is saved: the MFA set-up, unless MFA is already on or the
 * user chose earlier (on this browser) to skip it. The gate sends /mfa-setup to the dashboard
 * too when MFA is on; deciding here saves the extra hop.
 */
export function nextStepAfterProfile(user: Pick<TUser, 'mfaSetup' | 'mfaConfirm'>, isMfaSkipped: boolean): string {
  return (user.mfaSetup && user.mfaConfirm) || isMfaSkipped ? paths.dashboard : paths.mfaSetup;
}
