import type { GatewayRepository } from './repository.ts';

/** How long a node trusts what it read about a secret or a route (revocations on other nodes wait this long). */
export const GATEWAY_CACHE_MS = 2_000;

type Entry = { applicationId: string; isValid: boolean; checkedUntilMs: number };

/**
 * Whether a client secret still admits its access tokens: not revoked, not past its expiry, its
 * application not deleted, its application's account ACTIVE (not while staff have removed the
 * account's last active user). One indexed read per secret every GATEWAY_CACHE_MS at most; a
 * change announced on this node (lib/application-changes.ts: by the application manager) drops the
 * application's entries at once, and an account's change (user management) every entry.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly repository: Pick<GatewayRepository, 'findSecretValidity'>) {}

  /** What this node knows without reading the database, or undefined when it must (see isValid). */
  known(secretId: string, applicationId: string, nowMs = Date.now()): boolean | undefined {
    const cached = this.entries.get(secretId);
    return cached && cached.applicationId === applicationId && cached.checkedUntilMs > nowMs
      ? cached.isValid
      : undefined;
  }

  async isValid(secretId: string, applicationId: string, nowMs = Date.now()): Promise<boolean> {
    const known = this.known(secretId, applicationId, nowMs);
    if (known !== undefined) return known;
    const secret = await this.repository.findSecretValidity(secretId, applicationId);
    const expiresAtMs = secret?.expiresAtMs ?? null;
    const isValid =
      Boolean(secret) && !secret!.isRevoked && secret!.isAccountActive && (expiresAtMs === null || expiresAtMs > nowMs);
    // A secret about to expire is re-read when it does, not up to GATEWAY_CACHE_MS later.
    const until = Math.min(nowMs + GATEWAY_CACHE_MS, isValid && expiresAtMs !== null ? expiresAtMs : Infinity);
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(secretId, { applicationId, isValid, checkedUntilMs: until });
    return isValid;
  }

  forgetAll(): void {
    this.entries.clear();
  }

  forgetApplication(applicationId: string): void {
    for (const [key, entry] of this.entries) if (entry.applicationId === applicationId) this.entries.delete(key);
  }
}
