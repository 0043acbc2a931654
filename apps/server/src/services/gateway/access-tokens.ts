import { randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { ACCESS_TOKEN_SECONDS } from '@connect/shared';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { GatewayRepository } from './repository.ts';

const AUDIENCE = 'platform-api';

/**
 * What an application's OAuth2 access token (from POST /oauth2/token) says: which application,
 * account and client secret. Not the portal's session JWTs, not the ERC tokens of tokenise.
 */
export type AccessTokenClaims = { applicationId: string; accountId: string; secretId: string; clientId: string };

/**
 * The HS256 key of the platform API's access tokens: 32 random bytes made on first start, stored
 * sealed with SECRET_KEY in app_settings so every node (and a restart) shares it. Only this server
 * issues and checks these tokens, so a symmetric key is enough and verifies in microseconds.
 */
export async function loadAccessTokenKey(
  repository: Pick<GatewayRepository, 'loadOrCreateAccessTokenKey'>,
  box: SecretBox,
): Promise<Uint8Array> {
  const sealed = await repository.loadOrCreateAccessTokenKey(() => box.seal(randomBytes(32).toString('base64url')));
  return new Uint8Array(Buffer.from(box.open(sealed, "the platform API's access-token key"), 'base64url'));
}

/** Issues the platform API's access tokens and checks them, remembering each verified token until it expires. */
export class AccessTokenIssuer {
  private readonly verified = new ExpiringCache<AccessTokenClaims>(50_000);

  constructor(
    private readonly key: Uint8Array,
    private readonly issuer: string,
  ) {}

  issue(claims: AccessTokenClaims, now = Math.floor(Date.now() / 1000)): Promise<string> {
    return new SignJWT({ client_id: claims.clientId, acc: claims.accountId, sid: claims.secretId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setSubject(claims.applicationId)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
      .sign(this.key);
  }

  /** The claims of a token this node has verified before and that has not expired yet. */
  known(token: string): AccessTokenClaims | undefined {
    return this.verified.get(token);
  }

  /** The token's claims, or null when it is not one of ours, has no expiry or has expired. Remembered until expiry. */
  async verify(token: string): Promise<AccessTokenClaims | null> {
    const cached = this.verified.get(token);
    if (cached) return cached;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        // Every token this server issues expires; one without exp would be good forever.
        requiredClaims: ['exp'],
      });
      if (!payload.sub || typeof payload.acc !== 'string' || typeof payload.sid !== 'string') return null;
      const claims: AccessTokenClaims = {
        applicationId: payload.sub,
        accountId: payload.acc,
        secretId: payload.sid,
        clientId: String(payload.client_id ?? ''),
      };
      this.verified.set(token, claims, Number(payload.exp) * 1000);
      return claims;
    } catch {
      return null;
    }
  }
}
