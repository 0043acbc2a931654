/**
 * A bounded in-memory map whose entries expire; the oldest entry is evicted when it is full.
 * Used per node for verified access JWTs (keyed by the whole JWT) and, briefly, for portal users
 * (see plugins/auth.ts).
 */
export class ExpiringCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAtMs: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(key: string, nowMs = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  set(key: string, value: T, expiresAtMs: number): void {
    // Re-inserting moves the key to the newest position.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Map iterates in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAtMs });
  }

  get size(): number {
    return this.entries.size;
  }
}
