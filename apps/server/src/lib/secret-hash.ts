import { createHash } from 'node:crypto';

/**
 * SHA-256 of a client secret, as stored in application_secrets.secret_hash: the application
 * manager stores it when it makes a secret, the platform API looks the secret up by it. Secrets
 * are 256 random bits, so a fast hash is enough (docs/decisions/developer-hub.md, "Credentials").
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
