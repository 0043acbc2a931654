import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { IdpCodePurpose } from '@connect/db';
import type { MailMessage } from '../../adapters/mail/port.ts';
import { COGNITO_MESSAGES as M, CognitoError } from '../../lib/cognito-errors.ts';
import type { IdpUser } from '../../repositories/identity-pool.ts';
import { POLICY, type PoolContext } from './context.ts';
import { resetCodeEmail, signUpCodeEmail } from './emails.ts';
import type { CodeDeliveryDetails } from './wire.ts';

/** One-time codes sent by email: confirming a sign-up, resetting a forgotten password. */

/** `alice@example.com` → `a***@e***.com`, as Cognito shows where a code went. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return `${email.slice(0, 1)}***`;
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return `${email[0]}***@${domain.slice(0, 1)}***${dot > 0 ? domain.slice(dot) : ''}`;
}

export function deliveryTo(email: string): CodeDeliveryDetails {
  return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL', AttributeName: 'email' };
}

function codeHash(ctx: PoolContext, user: IdpUser, purpose: IdpCodePurpose, code: string): Buffer {
  return createHmac('sha256', ctx.pepper).update(`${purpose}:${user.sub}:${code}`).digest();
}

/** Sends a new code for the purpose; the user's earlier codes for it stop working. */
export async function sendCode(ctx: PoolContext, user: IdpUser, purpose: IdpCodePurpose): Promise<CodeDeliveryDetails> {
  const code = String(randomInt(1_000_000)).padStart(6, '0');
  const now = ctx.now();
  const lifetime = purpose === 'SIGN_UP' ? POLICY.signUpCodeMs : POLICY.resetCodeMs;
  const hash = codeHash(ctx, user, purpose, code).toString('base64url');
  await ctx.repo.replaceCode(user.sub, purpose, hash, new Date(now.getTime() + lifetime), now);
  const message: MailMessage =
    purpose === 'SIGN_UP'
      ? signUpCodeEmail(ctx.deps.product, user.email, code)
      : resetCodeEmail(ctx.deps.product, user.email, code);
  await ctx.deps.mailer.send(message);
  return deliveryTo(user.email);
}

/**
 * Accepts the user's latest code for the purpose once, or refuses it as Cognito does. Each wrong
 * code counts against the latest one; the guess that reaches POLICY.codeAttempts, and every
 * attempt after it (the right digits too), answers ExpiredCodeException: only a new code helps.
 */
export async function useCode(ctx: PoolContext, user: IdpUser, purpose: IdpCodePurpose, code: string): Promise<void> {
  const latest = await ctx.repo.findLatestCode(user.sub, purpose);
  if (!latest) throw new CognitoError('CodeMismatchException', M.codeMismatch);
  const spent = () => new CognitoError('ExpiredCodeException', M.codeExpired);
  if (latest.failedAttempts >= POLICY.codeAttempts) throw spent();
  const expected = Buffer.from(latest.codeHash, 'base64url');
  const given = codeHash(ctx, user, purpose, code.trim());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const attempts = await ctx.repo.countWrongCode(latest.id);
    if (attempts !== null && attempts >= POLICY.codeAttempts) throw spent();
    throw new CognitoError('CodeMismatchException', M.codeMismatch);
  }
  const now = ctx.now();
  if (latest.expiresAt.getTime() <= now.getTime()) throw spent();
  if (!(await ctx.repo.useCode(latest.id, now, POLICY.codeAttempts))) {
    // Used by a request that came first (a mismatch, as for any code no longer the latest), or
    // killed by wrong guesses that came first.
    const current = await ctx.repo.findLatestCode(user.sub, purpose);
    if (current?.id === latest.id) throw spent();
    throw new CognitoError('CodeMismatchException', M.codeMismatch);
  }
}
