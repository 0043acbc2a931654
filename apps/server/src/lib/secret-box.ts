import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A sealed value the configured SECRET_KEY does not open: it was sealed with another key (GCM's
 * tag does not match), which node:crypto reports only as "Unsupported state or unable to
 * authenticate data". `what` names the value (e.g. "the QNT deposit seed").
 */
export class SealedSecretError extends Error {
  constructor(readonly what: string) {
    super(
      `SECRET_KEY does not open ${what}: it was sealed with another SECRET_KEY (SECRET_KEY has changed since, or ` +
        "another node's differs: every node of an installation must have the same SECRET_KEY). " +
        'Start again with the SECRET_KEY it was sealed with.',
    );
    this.name = 'SealedSecretError';
  }
}

/** AES-256-GCM encryption of secrets at rest (signing keys, TOTP secrets, the platform's own keys). */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    // Any configured string works as a secret: it is stretched to 32 bytes by SHA-256.
    this.key = createHash('sha256').update(secret).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
      '.',
    );
  }

  /** The plain text of `sealed`; `what` names it in the error when this key does not open it. */
  open(sealed: string, what = 'a value sealed at rest'): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !body) throw new Error(`Unrecognised sealed secret: ${what}`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // The only way a well-formed v1 value fails here is a tag mismatch: another key sealed it.
      throw new SealedSecretError(what);
    }
  }

  /** Whether this key opens `sealed` (the start-up check, sealed-data.ts). */
  opens(sealed: string): boolean {
    try {
      this.open(sealed);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Where a node without SECRET_KEY keeps the key it generated: its own data directory, so two
 * nodes without SECRET_KEY never have the same key.
 */
export const secretKeyFile = (dataDir: string): string => path.join(dataDir, 'secret.key');

/**
 * The configured SECRET_KEY, or for local runs a key generated once under DATA_DIR (production
 * refuses to start without SECRET_KEY, see config.ts).
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = secretKeyFile(dataDir);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
