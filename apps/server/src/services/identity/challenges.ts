import { randomBytes } from 'node:crypto';
import { COGNITO_MESSAGES as M, notAuthorized } from '../../lib/cognito-errors.ts';
import type { IdpUser } from '../../repositories/identity-pool.ts';
import { hashForStorage, POLICY, type PoolContext } from './context.ts';
import type { Challenge, SignInResult } from './wire.ts';

/**
 * Challenge sessions: the `Session` string that carries a sign-in from one step to the next (an
 * MFA code, a new password, setting up an authenticator). Each lives three minutes and is used once.
 */

export async function challenge(
  ctx: PoolContext,
  user: IdpUser,
  ChallengeName: Challenge,
  ChallengeParameters: Record<string, string>,
): Promise<SignInResult> {
  return { ChallengeName, Session: await createSession(ctx, user, ChallengeName), ChallengeParameters };
}

export async function createSession(ctx: PoolContext, user: IdpUser, challenge: Challenge): Promise<string> {
  const session = randomBytes(48).toString('base64url');
  const now = ctx.now();
  await ctx.repo.insertSession({
    idHash: hashForStorage(session),
    sub: user.sub,
    challenge,
    expiresAt: new Date(now.getTime() + POLICY.sessionMs),
    now,
  });
  return session;
}

/** The user a live challenge session belongs to; the session stays unused. */
export async function openSession(
  ctx: PoolContext,
  session: string,
  challenge: Challenge,
  username?: string,
): Promise<IdpUser> {
  const row = await ctx.repo.findSession(hashForStorage(session));
  if (!row || row.challenge !== challenge) throw notAuthorized(M.sessionInvalid);
  if (row.usedAt) throw notAuthorized(M.sessionUsed);
  if (row.expiresAt.getTime() <= ctx.now().getTime()) throw notAuthorized(M.sessionExpired);
  const user = await ctx.repo.findUserBySub(row.sub);
  if (!user) throw notAuthorized(M.sessionInvalid);
  if (username !== undefined) {
    const name = username.toLowerCase();
    if (name !== user.username && name !== user.sub) throw notAuthorized(M.sessionInvalid);
  }
  return user;
}

export async function useSession(ctx: PoolContext, session: string): Promise<void> {
  if (!(await ctx.repo.useSession(hashForStorage(session), ctx.now()))) {
    const row = await ctx.repo.findSession(hashForStorage(session));
    throw notAuthorized(row && !row.usedAt ? M.sessionExpired : M.sessionUsed);
  }
}
