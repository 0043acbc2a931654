import { randomUUID } from 'node:crypto';
import type { KeyStore } from '../../lib/pool-keys.ts';
import { ACCESS_JWT_SECONDS, type PoolSettings } from '../../lib/pool-settings.ts';

export { ACCESS_JWT_SECONDS };

/**
 * The pool's JWTs: the ID token (who the user is, read by the SPA through Amplify) and the access
 * token (what the API verifies on every request, plugins/auth.ts). Both are RS256 JWTs with
 * Cognito's claims (see shared/reference/cognito-compat.md). Refresh tokens are not JWTs: they
 * are opaque and stored hashed (sessions.ts).
 */
export const ID_JWT_SECONDS = 3600;

/** The user a pair of JWTs is issued to. */
export type JwtSubject = {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
  groups: string[];
};

/** The sign-in the JWTs belong to: refreshed JWTs keep its `auth_time` and `origin_jti`. */
export type JwtSession = { authTime: number; originJti: string };

type Issue = { session: JwtSession; eventId: string; now: number };

/** Signs the pool's ID and access tokens with its active key. */
export class JwtIssuer {
  constructor(
    private readonly keys: KeyStore,
    private readonly pool: PoolSettings,
  ) {}

  /** Both JWTs of a sign-in or a refresh, sharing one `event_id` as Cognito's do. */
  async issuePair(
    subject: JwtSubject,
    session: JwtSession,
    now = Math.floor(Date.now() / 1000),
  ): Promise<{ AccessToken: string; IdToken: string }> {
    const issue = { session, eventId: randomUUID(), now };
    const [IdToken, AccessToken] = await Promise.all([
      this.issueIdToken(subject, issue),
      this.issueAccessToken(subject, issue),
    ]);
    return { AccessToken, IdToken };
  }

  issueIdToken(subject: JwtSubject, { session, eventId, now }: Issue): Promise<string> {
    return this.keys.sign(
      {
        sub: subject.sub,
        ...groupsClaim(subject),
        email_verified: subject.emailVerified,
        iss: this.pool.issuer,
        'cognito:username': subject.username,
        origin_jti: session.originJti,
        aud: this.pool.clientId,
        event_id: eventId,
        token_use: 'id',
        auth_time: session.authTime,
        email: subject.email,
        jti: randomUUID(),
      },
      ID_JWT_SECONDS,
      now,
    );
  }

  issueAccessToken(subject: JwtSubject, { session, eventId, now }: Issue): Promise<string> {
    return this.keys.sign(
      {
        sub: subject.sub,
        ...groupsClaim(subject),
        iss: this.pool.issuer,
        client_id: this.pool.clientId,
        origin_jti: session.originJti,
        event_id: eventId,
        token_use: 'access',
        scope: 'aws.cognito.signin.user.admin',
        auth_time: session.authTime,
        jti: randomUUID(),
        username: subject.username,
      },
      ACCESS_JWT_SECONDS,
      now,
    );
  }
}

function groupsClaim(subject: JwtSubject) {
  return subject.groups.length ? { 'cognito:groups': subject.groups } : {};
}
