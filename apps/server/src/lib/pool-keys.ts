import { randomUUID } from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import type { Database } from '@connect/db';
import type { SecretBox } from './secret-box.ts';
import { IdentityPoolRepository } from '../repositories/identity-pool.ts';

type SigningKey = { kid: string; privateKey: Awaited<ReturnType<typeof importJWK>> };

/**
 * The pool's RS256 signing keys. The key is generated on first start; its private half is stored
 * encrypted with the configured secret key, its public half served as the pool's JWKS.
 */
export class KeyStore {
  private constructor(
    private readonly active: SigningKey,
    private readonly publicJwks: JSONWebKeySet,
  ) {
    this.verificationKeys = createLocalJWKSet(publicJwks);
  }

  readonly verificationKeys: JWTVerifyGetKey;

  static async load(db: Database, box: SecretBox): Promise<KeyStore> {
    const repo = new IdentityPoolRepository(db);
    let rows = await repo.activeSigningKeys();
    if (rows.length === 0) {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const kid = randomUUID();
      const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
      const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
      await repo.insertSigningKey({ kid, publicJwk, privateJwkEncrypted: box.seal(JSON.stringify(privateJwk)) });
      rows = await repo.activeSigningKeys();
    }
    // The newest active key signs; every active key verifies (room for rotation).
    const newest = rows[0]!;
    const privateJwk = JSON.parse(box.open(newest.privateJwkEncrypted, "the identity pool's signing key")) as JWK;
    const privateKey = await importJWK(privateJwk, 'RS256');
    return new KeyStore({ kid: newest.kid, privateKey }, { keys: rows.map((row) => row.publicJwk as unknown as JWK) });
  }

  jwks(): JSONWebKeySet {
    return this.publicJwks;
  }

  sign(payload: JWTPayload, expiresInSeconds: number, now = Math.floor(Date.now() / 1000)): Promise<string> {
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: this.active.kid })
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInSeconds)
      .sign(this.active.privateKey);
  }
}
