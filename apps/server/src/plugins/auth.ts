import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { DbHandle } from '@connect/db';
import type { ProblemCode } from '@connect/shared';
import type { IdentityAdmin } from '../adapters/identity-admin/port.ts';
import { forbidden, problem, unauthorized } from '../lib/errors.ts';
import { ExpiringCache } from '../lib/expiring-cache.ts';
import type { PortalUser } from '../lib/portal-users.ts';
import type { SessionRevocations } from '../lib/session-revocations.ts';
import { createPortalUser, findPortalUser, recordMfaState, recordSignIn } from '../repositories/portal-users.ts';

export type AccessClaims = {
  sub: string;
  username: string;
  clientId: string;
  groups: string[];
  authTime: Date;
  originJti: string | undefined;
  issuedAt: number;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET route that changes the caller's own record (it must not be served from the cache after). */
    refreshesUser?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in portal user; set on every non-public route. */
    user?: PortalUser;
    claims?: AccessClaims;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<PortalUser>;
    requireStaffMfa(user: PortalUser): Promise<void>;
    verifyAccessToken(token: string): Promise<AccessClaims>;
  }
}

/**
 * Why a token did not verify, as the code the caller sees: expired (the SPA refreshes and tries
 * again), issued by another pool (a node given another issuer: docs/operations.md), or not a
 * token of this pool at all (malformed, forged, signed by an unknown key, without `exp`). A JWKS
 * that cannot be fetched (AWS Cognito unreachable: a timeout, or a failure that is not jose's
 * verdict on the token) is the server's trouble, not the token's.
 */
function verificationFailure(err: unknown): ProblemCode {
  if (err instanceof errors.JWTExpired) return 'TOKEN_EXPIRED';
  if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'iss') return 'TOKEN_WRONG_ISSUER';
  if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError)) {
    throw problem('SERVICE_UNAVAILABLE', { detail: 'The identity provider’s signing keys cannot be read.' });
  }
  return 'TOKEN_INVALID';
}

export type AuthOptions = {
  dbh: DbHandle;
  identityAdmin: IdentityAdmin;
  issuer: string;
  clientId: string;
  /** The embedded pool's keys, or undefined to fetch the issuer's JWKS (AWS Cognito). */
  keys: JWTVerifyGetKey | undefined;
  jwksUrl: string;
  /** How long a node reuses a loaded portal user (0 = load on every request). */
  userCacheMs: number;
  /** Signed-out and revoked sessions, refused even while their tokens sit in the verified cache. */
  revocations: SessionRevocations;
};

/**
 * Verifies access tokens with jose against the configured issuer and JWKS — the same code for the
 * embedded pool and AWS Cognito — and finds the portal user by `sub`, creating the user and an
 * account on first sign-in (spec §4: the user id is the token's subject).
 */
export const authPlugin = fp<AuthOptions>(
  async (app, options) => {
    const keys = options.keys ?? createRemoteJWKSet(new URL(options.jwksUrl));

    const verified = new ExpiringCache<AccessClaims>();
    const recentUsers = new ExpiringCache<PortalUser>();

    async function verifyAccessToken(token: string): Promise<AccessClaims> {
      const claims = verified.get(token) ?? (await verifySignature(token));
      if (options.revocations.isRevoked(claims)) throw unauthorized('SESSION_SIGNED_OUT');
      return claims;
    }

    async function verifySignature(token: string): Promise<AccessClaims> {
      let payload;
      try {
        // A token without `exp` would be good for ever: refused.
        ({ payload } = await jwtVerify(token, keys, {
          issuer: options.issuer,
          algorithms: ['RS256'],
          requiredClaims: ['exp'],
        }));
      } catch (err) {
        throw unauthorized(verificationFailure(err));
      }
      if (payload.token_use !== 'access' || payload.client_id !== options.clientId || !payload.sub) {
        throw unauthorized('TOKEN_WRONG_USE');
      }
      const claims: AccessClaims = {
        sub: payload.sub,
        username: String(payload.username ?? payload.sub),
        clientId: String(payload.client_id),
        groups: Array.isArray(payload['cognito:groups']) ? (payload['cognito:groups'] as string[]) : [],
        authTime: new Date(Number(payload.auth_time ?? payload.iat ?? 0) * 1000),
        originJti: typeof payload.origin_jti === 'string' ? payload.origin_jti : undefined,
        issuedAt: Number(payload.iat ?? 0),
      };
      // jwtVerify refused expired tokens, so `exp` is in the future here.
      verified.set(token, claims, Number(payload.exp) * 1000);
      return claims;
    }

    async function authenticate(request: FastifyRequest): Promise<PortalUser> {
      if (request.user) return request.user;
      const header = request.headers.authorization;
      const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
      if (!match) throw unauthorized();
      const claims = await verifyAccessToken(match[1]!);
      let user = recentUsers.get(claims.sub) ?? (await findPortalUser(options.dbh, claims.sub));
      if (!user) {
        const identity = await options.identityAdmin.getUser(claims.username);
        if (!identity) throw unauthorized('UNKNOWN_USER');
        await createPortalUser(options.dbh.db, app.events, { id: claims.sub, email: identity.email });
        user = await findPortalUser(options.dbh, claims.sub);
        if (!user) throw unauthorized('UNKNOWN_USER');
      }
      if (user.status === 'REMOVED') throw forbidden('USER_REMOVED');
      const firstSignIn = !user.lastLoginAt;
      user.lastLoginAt = await recordSignIn(options.dbh.db, user.id, claims.authTime, user.lastLoginAt);
      if (firstSignIn && user.status === 'PENDING') user.status = 'ACTIVE';
      if (options.userCacheMs > 0) recentUsers.set(user.id, user, Date.now() + options.userCacheMs);
      request.user = user;
      request.claims = claims;
      return user;
    }

    // A user's own change (any non-GET request, or a GET marked refreshesUser) drops their cached
    // record on this node, so their next request reads what they just wrote.
    app.addHook('onResponse', async (request) => {
      if (!request.user) return;
      if (request.method !== 'GET' || request.routeOptions.config.refreshesUser) recentUsers.delete(request.user.id);
    });

    /**
     * Staff must use an authenticator app (issue 32 §1; docs/decisions/staff-console.md): a staff
     * call from a QUANT_ADMIN or QUANT_SALES user without MFA answers 409 STAFF_MFA_REQUIRED (not
     * 403, which signs the SPA out). The portal's copy of the MFA state is refreshed by the SPA's
     * MFA status call; a stale "no" is checked once against the identity pool before refusing.
     */
    async function requireStaffMfa(user: PortalUser): Promise<void> {
      if (user.mfaSetup && user.mfaConfirm) return;
      const identity = await options.identityAdmin.getUser(user.email);
      if (!identity?.totpVerified || !identity.mfaPreferred) throw problem('STAFF_MFA_REQUIRED');
      await recordMfaState(options.dbh.db, user.id, { mfaSetup: true, mfaConfirm: true });
      user.mfaSetup = true;
      user.mfaConfirm = true;
    }

    app.decorate('verifyAccessToken', verifyAccessToken);
    app.decorate('authenticate', authenticate);
    app.decorate('requireStaffMfa', requireStaffMfa);
    app.decorateRequest('user', undefined);
    app.decorateRequest('claims', undefined);
  },
  // The bus announces user.signed_up when a first sign-in creates the portal user.
  { name: 'auth', decorators: { fastify: ['events'] } },
);
