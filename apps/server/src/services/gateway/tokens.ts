import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { jwtVerify, SignJWT } from 'jose';
import { appSettings, type Database } from '@connect/db';
import { ACCESS_TOKEN_SECONDS } from '@connect/shared';
import { ExpiringCache } from '../../lib/expiring-cache.ts';
import type { SecretBox } from '../../lib/secret-box.ts';

const KEY_SETTING = 'gateway.token_key';
const AUDIENCE = 'platform-api';

/** What an application's access token says: which application, account and client secret. */
export type PlatformClaims = { applicationId: string; accountId: string; secretId: string; clientId: string };

/**
 * The HS256 key of the platform API's access tokens: 32 random bytes made on first start, stored
 * sealed with SECRET_KEY in app_settings so every node (and a restart) shares it. Only this server
 * issues and checks these tokens, so a symmetric key is enough and verifies in microseconds.
 */
export async function loadTokenKey(db: Database, box: SecretBox): Promise<Uint8Array> {
  const read = async () => (await db.select().from(appSettings).where(eq(appSettings.key, KEY_SETTING)))[0];
  let row = await read();
  if (!row) {
    await db
      .insert(appSettings)
      .values({ key: KEY_SETTING, value: box.seal(randomBytes(32).toString('base64url')) })
      .onConflictDoNothing();
    // Another node may have won the race: use what was stored.
    row = await read();
  }
  return new Uint8Array(Buffer.from(box.open(row!.value), 'base64url'));
}

export class PlatformTokens {
  private readonly verified = new ExpiringCache<PlatformClaims>(50_000);

  constructor(
    private readonly key: Uint8Array,
    private readonly issuer: string,
  ) {}

  sign(claims: PlatformClaims, now = Math.floor(Date.now() / 1000)): Promise<string> {
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
  known(token: string): PlatformClaims | undefined {
    return this.verified.get(token);
  }

  /** The token's claims, or null when it is not one of ours, has no expiry or has expired. Remembered until expiry. */
  async verify(token: string): Promise<PlatformClaims | null> {
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
      const claims: PlatformClaims = {
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
