import { z } from 'zod';
import {
  COGNITO_MESSAGES as M,
  CognitoError,
  invalidParameter,
  notAuthorized,
  usernameExists,
} from '../../lib/cognito-errors.ts';
import { assertPasswordPolicy, hashPassword } from '../../lib/passwords.ts';
import { deliveryTo, sendCode, useCode } from './codes.ts';
import type { PoolContext } from './context.ts';
import { writableAttributes } from './user.ts';
import type { TConfirmSignUp, TResendConfirmationCode, TSignUp } from './wire.ts';

/** Sign-up and its confirmation by a code sent to the email address. */

const isEmail = (value: string) => z.email().safeParse(value).success;

export async function signUp(ctx: PoolContext, input: TSignUp) {
  ctx.assertClient(input.ClientId);
  const username = input.Username.toLowerCase();
  if (!isEmail(username)) throw invalidParameter('Username should be an email.');
  const attributes = writableAttributes(input.UserAttributes ?? [], 'email');
  const email = (input.UserAttributes?.find((a) => a.Name === 'email')?.Value ?? username).toLowerCase();
  if (email !== username) throw invalidParameter('The email attribute must be the same as the username.');
  assertPasswordPolicy(input.Password);
  // After the checks a browser already makes, before the pool says whether the email exists:
  // a solution is spent even when the sign-up then fails, so probing costs a proof of work each.
  if (ctx.deps.captcha) {
    const solution = input.ValidationData?.find((a) => a.Name === 'captcha')?.Value;
    if (!(await ctx.deps.captcha.verify(solution))) throw invalidParameter('Captcha verification failed.');
  }
  if (await ctx.repo.findUserByUsername(username)) throw usernameExists();
  const now = ctx.now();
  const user = await ctx.repo.insertUser({
    username,
    email,
    emailVerified: false,
    status: 'UNCONFIRMED',
    passwordHash: await hashPassword(input.Password),
    attributes,
    createdAt: now,
    updatedAt: now,
  });
  if (!user) throw usernameExists();
  const CodeDeliveryDetails = await sendCode(ctx, user, 'SIGN_UP');
  return { UserConfirmed: false, UserSub: user.sub, CodeDeliveryDetails };
}

export async function confirmSignUp(ctx: PoolContext, input: TConfirmSignUp) {
  ctx.assertClient(input.ClientId);
  const user = await ctx.repo.findUserByUsername(input.Username.toLowerCase());
  // Same answer as a wrong code: the pool does not say which usernames exist.
  if (!user) throw new CognitoError('CodeMismatchException', M.codeMismatch);
  if (user.status !== 'UNCONFIRMED') {
    throw notAuthorized(`User cannot be confirmed. Current status is ${user.status}`);
  }
  await ctx.countAction(user, 'CONFIRM_SIGN_UP');
  await useCode(ctx, user, 'SIGN_UP', input.ConfirmationCode);
  await ctx.repo.updateUser(user.sub, { status: 'CONFIRMED', emailVerified: true }, ctx.now());
  return {};
}

export async function resendConfirmationCode(ctx: PoolContext, input: TResendConfirmationCode) {
  ctx.assertClient(input.ClientId);
  const username = input.Username.toLowerCase();
  const user = await ctx.repo.findUserByUsername(username);
  if (!user) return { CodeDeliveryDetails: deliveryTo(username) };
  if (user.status !== 'UNCONFIRMED') throw invalidParameter(M.alreadyConfirmedResend);
  await ctx.countAction(user, 'RESEND_CODE');
  return { CodeDeliveryDetails: await sendCode(ctx, user, 'SIGN_UP') };
}
