import { randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Database } from '@connect/db';
import { COGNITO_MESSAGES as M, notAuthorized } from '../../lib/cognito-errors.ts';
import { endSession } from '../../lib/pool-sign-out.ts';
import { IdentityPoolRepository, type IdpUser } from '../../repositories/identity-pool.ts';
import { hashForStorage, type PoolContext } from './context.ts';
import { ACCESS_JWT_SECONDS, JwtIssuer, type JwtSubject } from './jwts.ts';
import type { KeyStore } from '../../lib/pool-keys.ts';
import type { PoolSettings } from '../../lib/pool-settings.ts';
import type {
  AuthenticationResult,
  SignInResult,
  TAccessTokenOnly,
  TGetTokensFromRefreshToken,
  TRevokeToken,
} from './wire.ts';

/**
 * A sign-in's session: its JWTs, its refresh tokens (opaque, stored hashed, rotated by
 * GetTokensFromRefreshToken), the check of an access token the pool issued, and its end
 * (GlobalSignOut, RevokeToken).
 */

export const REFRESH_TOKEN_DAYS = 30;

export function subjectOf(user: IdpUser): JwtSubject {
  return {
    sub: user.sub,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerified,
    groups: user.groups,
  };
}

/**
 * Creates a refresh token (opaque, stored hashed). A rotated token keeps its sign-in's `expiresAt`,
 * so rotation never stretches a session past 30 days from the sign-in.
 */
export async function createRefreshToken(
  repo: IdentityPoolRepository,
  input: { sub: string; clientId: string; originJti: string; authTime: Date; now?: Date; expiresAt?: Date },
): Promise<string> {
  const now = input.now ?? new Date();
  const token = randomBytes(48).toString('base64url');
  await repo.insertRefreshToken({
    tokenHash: hashForStorage(token),
    sub: input.sub,
    clientId: input.clientId,
    originJti: input.originJti,
    authTime: input.authTime,
    expiresAt: input.expiresAt ?? new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
    now,
  });
  return token;
}

/** A full sign-in result: a new origin_jti, the JWT pair and a refresh token. */
export async function issueAuthentication(
  db: Database,
  keys: KeyStore,
  pool: PoolSettings,
  subject: JwtSubject,
  options: { now?: Date } = {},
): Promise<AuthenticationResult> {
  const now = options.now ?? new Date();
  const authTime = Math.floor(now.getTime() / 1000);
  const originJti = randomUUID();
  const pair = await new JwtIssuer(keys, pool).issuePair(subject, { authTime, originJti }, authTime);
  const RefreshToken = await createRefreshToken(new IdentityPoolRepository(db), {
    sub: subject.sub,
    clientId: pool.clientId,
    originJti,
    authTime: new Date(authTime * 1000),
    now,
  });
  return { ...pair, RefreshToken, ExpiresIn: ACCESS_JWT_SECONDS, TokenType: 'Bearer' };
}

/** The end of a sign-in flow: a new session's JWTs and refresh token. */
export async function signedIn(ctx: PoolContext, user: IdpUser): Promise<SignInResult> {
  const { db, keys, pool } = ctx.deps;
  const AuthenticationResult = await issueAuthentication(db, keys, pool, subjectOf(user), { now: ctx.now() });
  return { AuthenticationResult, ChallengeParameters: {} };
}

/** New JWTs for a refresh token (REFRESH_TOKEN_AUTH), and with `rotate` a new refresh token too. */
export async function refresh(
  ctx: PoolContext,
  refreshToken: string,
  options: { rotate: boolean },
): Promise<AuthenticationResult> {
  const { repo } = ctx;
  const { pool } = ctx.deps;
  const now = ctx.now();
  const row = await repo.findRefreshToken(hashForStorage(refreshToken));
  if (!row || row.clientId !== pool.clientId) throw notAuthorized(M.invalidRefreshToken);
  if (row.revokedAt) throw notAuthorized(M.revokedRefreshToken);
  if (row.expiresAt.getTime() <= now.getTime()) throw notAuthorized(M.expiredRefreshToken);
  // A token already rotated is spent: the client holds its successor.
  if (row.replacedAt) throw notAuthorized(M.invalidRefreshToken);
  const user = await repo.findUserBySub(row.sub);
  if (!user) throw notAuthorized(M.userDoesNotExist);
  let RefreshToken: string | undefined;
  if (options.rotate) {
    if (!(await repo.replaceRefreshToken(row.id, now))) throw notAuthorized(M.invalidRefreshToken);
    RefreshToken = await createRefreshToken(repo, {
      sub: row.sub,
      clientId: row.clientId,
      originJti: row.originJti,
      authTime: row.authTime,
      expiresAt: row.expiresAt,
      now,
    });
  }
  // The refreshed pair belongs to the same sign-in: same auth_time and origin_jti.
  const pair = await ctx.jwts.issuePair(
    subjectOf(user),
    { authTime: Math.floor(row.authTime.getTime() / 1000), originJti: row.originJti },
    Math.floor(now.getTime() / 1000),
  );
  return { ...pair, ...(RefreshToken ? { RefreshToken } : {}), ExpiresIn: ACCESS_JWT_SECONDS, TokenType: 'Bearer' };
}

/** The user behind an access token the pool issued, unless it expired or was revoked. */
export async function userForAccessToken(ctx: PoolContext, token: string): Promise<IdpUser> {
  const { keys, pool } = ctx.deps;
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keys.verificationKeys, {
      issuer: pool.issuer,
      algorithms: ['RS256'],
      currentDate: ctx.now(),
    }));
  } catch (error) {
    throw notAuthorized(error instanceof joseErrors.JWTExpired ? M.expiredAccessToken : M.invalidAccessToken);
  }
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  if (
    payload.token_use !== 'access' ||
    payload.client_id !== pool.clientId ||
    typeof payload.sub !== 'string' ||
    !scopes.includes('aws.cognito.signin.user.admin')
  ) {
    throw notAuthorized(M.invalidAccessToken);
  }
  const user = await ctx.repo.findUserBySub(payload.sub);
  if (!user) throw notAuthorized(M.userDoesNotExist);
  // GlobalSignOut and RevokeToken revoke the sign-in (origin_jti) the token came from; the
  // tokens_valid_after instant also covers tokens from sign-ins the pool no longer has rows for.
  const originJti = typeof payload.origin_jti === 'string' ? payload.origin_jti : undefined;
  const validAfter = user.tokensValidAfter ? Math.floor(user.tokensValidAfter.getTime() / 1000) : undefined;
  if (
    (validAfter !== undefined && Number(payload.iat ?? 0) < validAfter) ||
    (originJti !== undefined && (await ctx.repo.isFamilyRevoked(originJti)))
  ) {
    throw notAuthorized(M.revokedAccessToken);
  }
  return user;
}

export async function getTokensFromRefreshToken(ctx: PoolContext, input: TGetTokensFromRefreshToken) {
  ctx.assertClient(input.ClientId);
  return { AuthenticationResult: await refresh(ctx, input.RefreshToken, { rotate: true }) };
}

export async function globalSignOut(ctx: PoolContext, input: TAccessTokenOnly) {
  const user = await userForAccessToken(ctx, input.AccessToken);
  await ctx.signOutEverywhere(user);
  return {};
}

export async function revokeToken(ctx: PoolContext, input: TRevokeToken) {
  ctx.assertClient(input.ClientId);
  const row = await ctx.repo.findRefreshToken(hashForStorage(input.Token));
  // An unknown token gets the same empty answer (RFC 7009): nothing tells a caller what exists.
  if (row && row.clientId === input.ClientId) {
    await endSession(ctx.repo, ctx.deps.revocations, { sub: row.sub, originJti: row.originJti }, ctx.now());
  }
  return {};
}
