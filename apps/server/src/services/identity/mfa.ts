import { COGNITO_MESSAGES as M, CognitoError, invalidParameter } from '../../lib/cognito-errors.ts';
import { createSession, openSession, useSession } from './challenges.ts';
import type { PoolContext } from './context.ts';
import { userForAccessToken } from './sessions.ts';
import { generateTotpSecret, matchTotpStep } from './totp.ts';
import type { TAssociateSoftwareToken, TSetUserMFAPreference, TVerifySoftwareToken } from './wire.ts';

/**
 * The authenticator app (TOTP): associating a secret, verifying it with a first code, and turning
 * MFA on or off. Set up either signed in (an access token) or during a sign-in that requires MFA
 * (the MFA_SETUP challenge's session).
 */

function onlyAccessToken(input: { AccessToken?: string | undefined; Session?: string | undefined }): string {
  if (input.AccessToken === undefined || input.Session !== undefined) {
    throw invalidParameter('Exactly one of AccessToken and Session is required.');
  }
  return input.AccessToken;
}

export async function associateSoftwareToken(ctx: PoolContext, input: TAssociateSoftwareToken) {
  const secret = generateTotpSecret();
  const sealed = { pendingTotpSecret: ctx.deps.box.seal(secret) };
  if (input.Session !== undefined && input.AccessToken === undefined) {
    const user = await openSession(ctx, input.Session, 'MFA_SETUP');
    await useSession(ctx, input.Session);
    await ctx.repo.updateUser(user.sub, sealed, ctx.now());
    return { SecretCode: secret, Session: await createSession(ctx, user, 'MFA_SETUP') };
  }
  const user = await userForAccessToken(ctx, onlyAccessToken(input));
  // The new secret waits beside the current one: the authenticator in use keeps working until
  // the new one is verified, so an abandoned set-up never leaves the account without MFA.
  await ctx.repo.updateUser(user.sub, sealed, ctx.now());
  return { SecretCode: secret };
}

export async function verifySoftwareToken(ctx: PoolContext, input: TVerifySoftwareToken) {
  const viaSession = input.Session !== undefined && input.AccessToken === undefined;
  const user = viaSession
    ? await openSession(ctx, input.Session!, 'MFA_SETUP')
    : await userForAccessToken(ctx, onlyAccessToken(input));
  if (!user.pendingTotpSecret) throw new CognitoError('SoftwareTokenMFANotFoundException', M.totpNotAssociated);
  const now = ctx.now();
  const step = matchTotpStep(
    ctx.deps.box.open(user.pendingTotpSecret, "a user's pending TOTP secret"),
    input.UserCode,
    now,
  );
  if (step === null) throw new CognitoError('EnableSoftwareTokenMFAException', M.totpSetupMismatch);
  if (!(await ctx.repo.claimTotpStep(user.sub, step, now))) {
    throw new CognitoError('ExpiredCodeException', M.totpReplayed);
  }
  const promoted = { totpSecret: user.pendingTotpSecret, pendingTotpSecret: null };
  if (!viaSession) {
    await ctx.repo.updateUser(user.sub, { ...promoted, totpVerified: true }, now);
    return { Status: 'SUCCESS' as const };
  }
  // Setting up during sign-in (MFA required) turns the authenticator on at once.
  await useSession(ctx, input.Session!);
  await ctx.repo.updateUser(user.sub, { ...promoted, totpVerified: true, mfaEnabled: true, mfaPreferred: true }, now);
  return { Status: 'SUCCESS' as const, Session: await createSession(ctx, user, 'MFA_SETUP') };
}

export async function setUserMfaPreference(ctx: PoolContext, input: TSetUserMFAPreference) {
  const user = await userForAccessToken(ctx, input.AccessToken);
  for (const other of [input.SMSMfaSettings, input.EmailMfaSettings]) {
    if (other?.Enabled || other?.PreferredMfa) {
      throw invalidParameter('Only software token MFA is available in this user pool.');
    }
  }
  const settings = input.SoftwareTokenMfaSettings;
  if (!settings) return {};
  const enabled = settings.PreferredMfa === true ? true : (settings.Enabled ?? user.mfaEnabled);
  if (enabled && !user.totpVerified) {
    throw new CognitoError('SoftwareTokenMFANotFoundException', M.totpNotEnabled);
  }
  const preferred = enabled && (settings.PreferredMfa ?? user.mfaPreferred);
  await ctx.repo.updateUser(user.sub, { mfaEnabled: enabled, mfaPreferred: preferred }, ctx.now());
  return {};
}
