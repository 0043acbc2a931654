/**
 * Remembers tokens whose signature was already verified, until they expire. RS256 verification
 * costs about a quarter of a millisecond of CPU; a browser sends the same access token for an hour,
 * so verifying it once per node is enough. Entries are keyed by the whole token string, so a
 * token that differs in any byte is verified afresh. Oldest entries are evicted first.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAtMs: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(token: string, nowMs = Date.now()): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.value;
  }

  set(token: string, value: T, expiresAtMs: number): void {
    if (this.entries.size >= this.maxEntries) {
      // Map iterates in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, { value, expiresAtMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
