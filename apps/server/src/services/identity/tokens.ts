import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '@connect/db';
import type { KeyStore } from './keys.ts';
import type { PoolSettings } from './pool.ts';
import { IdentityRepository } from './repository.ts';

export const ACCESS_TOKEN_SECONDS = 3600;
export const ID_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_DAYS = 30;

export type TokenSubject = {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
  groups: string[];
};

export type AuthenticationResult = {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: 'Bearer';
};

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Issues an ID and access token pair with Cognito's claims (see shared/reference/cognito-compat.md). */
export async function signTokenPair(
  keys: KeyStore,
  pool: PoolSettings,
  subject: TokenSubject,
  session: { authTime: number; originJti: string; now?: number },
): Promise<{ AccessToken: string; IdToken: string }> {
  const now = session.now ?? Math.floor(Date.now() / 1000);
  const eventId = randomUUID();
  const groups = subject.groups.length ? { 'cognito:groups': subject.groups } : {};
  const [IdToken, AccessToken] = await Promise.all([
    keys.sign(
      {
        sub: subject.sub,
        ...groups,
        email_verified: subject.emailVerified,
        iss: pool.issuer,
        'cognito:username': subject.username,
        origin_jti: session.originJti,
        aud: pool.clientId,
        event_id: eventId,
        token_use: 'id',
        auth_time: session.authTime,
        email: subject.email,
        jti: randomUUID(),
      },
      ID_TOKEN_SECONDS,
      now,
    ),
    keys.sign(
      {
        sub: subject.sub,
        ...groups,
        iss: pool.issuer,
        client_id: pool.clientId,
        origin_jti: session.originJti,
        event_id: eventId,
        token_use: 'access',
        scope: 'aws.cognito.signin.user.admin',
        auth_time: session.authTime,
        jti: randomUUID(),
        username: subject.username,
      },
      ACCESS_TOKEN_SECONDS,
      now,
    ),
  ]);
  return { AccessToken, IdToken };
}

/**
 * Creates a refresh token (opaque, stored hashed). A rotated token keeps its sign-in's `expiresAt`,
 * so rotation never stretches a session past 30 days from the sign-in.
 */
export async function createRefreshToken(
  db: Database,
  input: { sub: string; clientId: string; originJti: string; authTime: Date; now?: Date; expiresAt?: Date },
): Promise<string> {
  const now = input.now ?? new Date();
  const token = randomBytes(48).toString('base64url');
  await new IdentityRepository(db).insertRefreshToken({
    tokenHash: hashToken(token),
    sub: input.sub,
    clientId: input.clientId,
    originJti: input.originJti,
    authTime: input.authTime,
    expiresAt: input.expiresAt ?? new Date(now.getTime() + REFRESH_TOKEN_DAYS * 86_400_000),
    now,
  });
  return token;
}

/** A full sign-in result: new origin_jti, token pair and refresh token. */
export async function issueAuthentication(
  db: Database,
  keys: KeyStore,
  pool: PoolSettings,
  subject: TokenSubject,
  options: { now?: Date } = {},
): Promise<AuthenticationResult> {
  const now = options.now ?? new Date();
  const authTime = Math.floor(now.getTime() / 1000);
  const originJti = randomUUID();
  const pair = await signTokenPair(keys, pool, subject, { authTime, originJti, now: authTime });
  const RefreshToken = await createRefreshToken(db, {
    sub: subject.sub,
    clientId: pool.clientId,
    originJti,
    authTime: new Date(authTime * 1000),
    now,
  });
  return { ...pair, RefreshToken, ExpiresIn: ACCESS_TOKEN_SECONDS, TokenType: 'Bearer' };
}
