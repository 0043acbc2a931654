import { COGNITO_MESSAGES as M, CognitoError, invalidParameter, notAuthorized } from '../../lib/cognito-errors.ts';
import { assertPasswordPolicy, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { deliveryTo, sendCode, useCode } from './codes.ts';
import type { PoolContext } from './context.ts';
import { userForAccessToken } from './sessions.ts';
import type { TChangePassword, TConfirmForgotPassword, TForgotPassword } from './wire.ts';

/** Changing a password when signed in, and resetting a forgotten one with a code sent by email. */

export async function changePassword(ctx: PoolContext, input: TChangePassword) {
  const user = await userForAccessToken(ctx, input.AccessToken);
  assertPasswordPolicy(input.ProposedPassword);
  await ctx.countAction(user, 'CHANGE_PASSWORD');
  if (!(await verifyPassword(user.passwordHash, input.PreviousPassword))) {
    throw notAuthorized(M.incorrectCredentials);
  }
  await ctx.repo.updateUser(user.sub, { passwordHash: await hashPassword(input.ProposedPassword) }, ctx.now());
  return {};
}

export async function forgotPassword(ctx: PoolContext, input: TForgotPassword) {
  ctx.assertClient(input.ClientId);
  const username = input.Username.toLowerCase();
  const user = await ctx.repo.findUserByUsername(username);
  if (!user) return { CodeDeliveryDetails: deliveryTo(username) };
  if (user.status === 'UNCONFIRMED') {
    throw invalidParameter(
      'Cannot reset password for the user as there is no registered/verified email or phone_number',
    );
  }
  if (user.status === 'FORCE_CHANGE_PASSWORD') {
    throw notAuthorized('User password cannot be reset in the current state.');
  }
  await ctx.countAction(user, 'FORGOT_PASSWORD');
  return { CodeDeliveryDetails: await sendCode(ctx, user, 'FORGOT_PASSWORD') };
}

export async function confirmForgotPassword(ctx: PoolContext, input: TConfirmForgotPassword) {
  ctx.assertClient(input.ClientId);
  assertPasswordPolicy(input.Password);
  const user = await ctx.repo.findUserByUsername(input.Username.toLowerCase());
  if (!user) throw new CognitoError('CodeMismatchException', M.codeMismatch);
  await ctx.countAction(user, 'CONFIRM_FORGOT_PASSWORD');
  await useCode(ctx, user, 'FORGOT_PASSWORD', input.ConfirmationCode);
  await ctx.repo.updateUser(
    user.sub,
    {
      passwordHash: await hashPassword(input.Password),
      passwordExpiresAt: null,
      status: 'CONFIRMED',
      // The code arrived by email: the address is proven, and so is the owner, who is unlocked.
      emailVerified: true,
      failedSignIns: 0,
      lastFailedSignInAt: null,
      lockedUntil: null,
    },
    ctx.now(),
  );
  // Unlike Cognito, a reset also ends the user's other sessions: people reset a password when
  // they fear someone else knows it.
  await ctx.signOutEverywhere(user);
  return {};
}
