import type { IdentityPoolRepository } from '../repositories/identity-pool.ts';
import type { SessionRevocations } from './session-revocations.ts';

/**
 * Ends every session of a pool user (GlobalSignOut, a password reset, an administrator's sign-out
 * or removal): the pool refuses their refresh tokens and the access JWTs issued before, and the
 * API is told, so it refuses those access JWTs too (session-revocations.ts). The sign-ins alive
 * now are named as well, which also covers their JWTs issued in this very second.
 */
export async function endEverySession(
  repo: IdentityPoolRepository,
  revocations: SessionRevocations,
  sub: string,
  now: Date,
): Promise<void> {
  const sessions = await repo.revokeAllRefreshTokens(sub, now);
  await repo.updateUser(sub, { tokensValidAfter: now }, now);
  await revocations.revokeUser(sub, { sessions, at: now });
}

/** Ends one sign-in (RevokeToken): its refresh tokens at the pool, its access tokens at the API. */
export async function endSession(
  repo: IdentityPoolRepository,
  revocations: SessionRevocations,
  session: { sub: string; originJti: string },
  now: Date,
): Promise<void> {
  // Revoking a revoked sign-in again records nothing, so repeating RevokeToken adds no rows.
  if (await repo.revokeFamily(session.originJti, now)) {
    await revocations.revokeSessions(session.sub, [session.originJti], now);
  }
}
