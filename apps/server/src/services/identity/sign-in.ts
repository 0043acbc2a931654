import { COGNITO_MESSAGES as M, CognitoError, invalidParameter, notAuthorized } from '../../lib/cognito-errors.ts';
import { assertPasswordPolicy, hashPassword, verifyDummyPassword, verifyPassword } from '../../lib/passwords.ts';
import type { IdpUser } from '../../repositories/identity-pool.ts';
import { challenge, openSession, useSession } from './challenges.ts';
import { POLICY, type PoolContext } from './context.ts';
import { refresh, signedIn } from './sessions.ts';
import { matchTotpStep } from './totp.ts';
import { userAttributes, writableAttributes } from './user.ts';
import type { SignInResult, TInitiateAuth, TRespondToAuthChallenge } from './wire.ts';

/**
 * Sign-in: a password (USER_PASSWORD_AUTH) or a refresh token, then the challenges a sign-in may
 * meet (an authenticator code, a new password, setting up an authenticator), and the lockout that
 * makes guessing slow.
 */

function required(parameters: Record<string, string>, name: string): string {
  const value = parameters[name];
  if (value === undefined || value === '') throw invalidParameter(`Missing required parameter ${name}`);
  return value;
}

export async function initiateAuth(ctx: PoolContext, input: TInitiateAuth): Promise<SignInResult> {
  ctx.assertClient(input.ClientId);
  const parameters = input.AuthParameters ?? {};
  switch (input.AuthFlow) {
    case 'USER_PASSWORD_AUTH':
      return signInWithPassword(ctx, required(parameters, 'USERNAME'), required(parameters, 'PASSWORD'));
    case 'REFRESH_TOKEN_AUTH':
    case 'REFRESH_TOKEN': {
      const AuthenticationResult = await refresh(ctx, required(parameters, 'REFRESH_TOKEN'), { rotate: false });
      return { AuthenticationResult, ChallengeParameters: {} };
    }
    case 'USER_SRP_AUTH':
    case 'CUSTOM_AUTH':
    case 'USER_AUTH':
    case 'ADMIN_USER_PASSWORD_AUTH':
    case 'ADMIN_NO_SRP_AUTH':
      throw invalidParameter(`${input.AuthFlow} is not enabled for the client.`);
    default:
      throw invalidParameter(
        `1 validation error detected: Value '${input.AuthFlow}' at 'authFlow' failed to satisfy constraint: Member must satisfy enum value set: [USER_PASSWORD_AUTH, REFRESH_TOKEN_AUTH, REFRESH_TOKEN]`,
      );
  }
}

export async function respondToAuthChallenge(ctx: PoolContext, input: TRespondToAuthChallenge): Promise<SignInResult> {
  ctx.assertClient(input.ClientId);
  const responses = input.ChallengeResponses ?? {};
  const username = required(responses, 'USERNAME');
  switch (input.ChallengeName) {
    case 'SOFTWARE_TOKEN_MFA':
      return answerTotpChallenge(ctx, input.Session, username, required(responses, 'SOFTWARE_TOKEN_MFA_CODE'));
    case 'NEW_PASSWORD_REQUIRED':
      return answerNewPasswordChallenge(ctx, input.Session, username, required(responses, 'NEW_PASSWORD'), responses);
    case 'MFA_SETUP': {
      const user = await openSession(ctx, input.Session, 'MFA_SETUP', username);
      if (!user.totpVerified) throw new CognitoError('SoftwareTokenMFANotFoundException', M.totpNotEnabled);
      await useSession(ctx, input.Session);
      return signedIn(ctx, user);
    }
    default:
      throw invalidParameter(`The challenge ${input.ChallengeName} is not supported by this user pool.`);
  }
}

async function signInWithPassword(ctx: PoolContext, usernameInput: string, password: string): Promise<SignInResult> {
  const user = await ctx.repo.findUserByUsername(usernameInput.toLowerCase());
  if (!user) {
    await verifyDummyPassword(password);
    throw notAuthorized(M.incorrectCredentials);
  }
  const now = ctx.now();
  // A locked user is refused before the password is checked, and the refusal does not count,
  // so retrying during a lockout never makes it longer.
  if (isLocked(user, now)) throw notAuthorized(M.passwordAttemptsExceeded);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordFailedSignIn(ctx, user);
    throw notAuthorized(M.incorrectCredentials);
  }
  await clearFailedSignIns(ctx, user);
  switch (user.status) {
    case 'UNCONFIRMED':
      throw new CognitoError('UserNotConfirmedException', M.userNotConfirmed);
    case 'RESET_REQUIRED':
      throw new CognitoError('PasswordResetRequiredException', 'Password reset required for the user');
    case 'FORCE_CHANGE_PASSWORD':
      if (user.passwordExpiresAt && user.passwordExpiresAt.getTime() <= now.getTime()) {
        throw notAuthorized(M.temporaryPasswordExpired);
      }
      return challenge(ctx, user, 'NEW_PASSWORD_REQUIRED', {
        USER_ID_FOR_SRP: user.username,
        requiredAttributes: '[]',
        userAttributes: JSON.stringify(
          Object.fromEntries(
            userAttributes(user)
              .filter((a) => a.Name !== 'sub')
              .map((a) => [a.Name, a.Value]),
          ),
        ),
      });
    case 'CONFIRMED':
      return afterPassword(ctx, user);
  }
}

/** The step after a correct (or newly chosen) password: an MFA challenge or the tokens. */
function afterPassword(ctx: PoolContext, user: IdpUser): Promise<SignInResult> {
  const hasAuthenticator = user.totpVerified && !!user.totpSecret;
  const mfaRequired =
    ctx.mfaConfiguration === 'ON' ? hasAuthenticator : hasAuthenticator && user.mfaEnabled && user.mfaPreferred;
  if (mfaRequired) return challenge(ctx, user, 'SOFTWARE_TOKEN_MFA', { USER_ID_FOR_SRP: user.username });
  if (ctx.mfaConfiguration === 'ON') {
    return challenge(ctx, user, 'MFA_SETUP', {
      MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]',
      USER_ID_FOR_SRP: user.username,
    });
  }
  return signedIn(ctx, user);
}

async function answerTotpChallenge(
  ctx: PoolContext,
  session: string,
  username: string,
  code: string,
): Promise<SignInResult> {
  const user = await openSession(ctx, session, 'SOFTWARE_TOKEN_MFA', username);
  const now = ctx.now();
  if (isLocked(user, now)) throw notAuthorized(M.passwordAttemptsExceeded);
  if (!user.totpSecret) throw notAuthorized(M.sessionInvalid);
  const step = matchTotpStep(ctx.deps.box.open(user.totpSecret, "a user's TOTP secret"), code, now);
  // A wrong code leaves the session usable (Amplify retries with it) but counts towards the
  // lockout, so the session's three minutes cannot be spent guessing codes.
  if (step === null) {
    await recordFailedSignIn(ctx, user);
    throw new CognitoError('CodeMismatchException', M.totpMismatch);
  }
  if (!(await ctx.repo.claimTotpStep(user.sub, step, now))) {
    throw new CognitoError('ExpiredCodeException', M.totpReplayed);
  }
  await useSession(ctx, session);
  await clearFailedSignIns(ctx, user);
  return signedIn(ctx, user);
}

async function answerNewPasswordChallenge(
  ctx: PoolContext,
  session: string,
  username: string,
  newPassword: string,
  responses: Record<string, string>,
): Promise<SignInResult> {
  const user = await openSession(ctx, session, 'NEW_PASSWORD_REQUIRED', username);
  if (user.status !== 'FORCE_CHANGE_PASSWORD') throw notAuthorized(M.sessionInvalid);
  // Checked before the session is used, so a password the policy refuses can be corrected.
  assertPasswordPolicy(newPassword);
  const given = Object.entries(responses)
    .filter(([name]) => name.startsWith('userAttributes.'))
    .map(([name, Value]) => ({ Name: name.slice('userAttributes.'.length), Value }));
  const attributes = { ...user.attributes, ...writableAttributes(given, 'email') };
  await useSession(ctx, session);
  const patch = {
    status: 'CONFIRMED' as const,
    passwordHash: await hashPassword(newPassword),
    passwordExpiresAt: null,
    attributes,
  };
  await ctx.repo.updateUser(user.sub, patch, ctx.now());
  return afterPassword(ctx, { ...user, ...patch });
}

// Lockout

function isLocked(user: IdpUser, now: Date): boolean {
  return !!user.lockedUntil && user.lockedUntil.getTime() > now.getTime();
}

async function recordFailedSignIn(ctx: PoolContext, user: IdpUser): Promise<void> {
  const now = ctx.now();
  const failures = await ctx.repo.recordFailedSignIn(user.sub, now, new Date(now.getTime() - POLICY.lockoutQuietMs));
  if (failures < POLICY.lockoutAfterFailures) {
    // A count that restarted after a quiet period also drops the old, elapsed lockout.
    if (user.lockedUntil) await ctx.repo.updateUser(user.sub, { lockedUntil: null }, now);
    return;
  }
  const seconds = Math.min(2 ** (failures - POLICY.lockoutAfterFailures), POLICY.lockoutMaxSeconds);
  await ctx.repo.updateUser(user.sub, { lockedUntil: new Date(now.getTime() + seconds * 1000) }, now);
}

async function clearFailedSignIns(ctx: PoolContext, user: IdpUser): Promise<void> {
  if (user.failedSignIns === 0 && !user.lockedUntil) return;
  await ctx.repo.updateUser(user.sub, { failedSignIns: 0, lastFailedSignInAt: null, lockedUntil: null }, ctx.now());
}
