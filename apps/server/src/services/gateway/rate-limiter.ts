import type { Redis } from 'ioredis';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const ALLOWED: RateDecision = { allowed: true };
/** Whole seconds until the next one-second window (at least 1). */
const retryAfter = (nowMs: number) => Math.max(1, Math.ceil((Math.floor(nowMs / 1000 + 1) * 1000 - nowMs) / 1000));

/**
 * Requests per second per account and network (`networks.rate_limit`), in fixed one-second
 * windows. In memory per node, or shared through Redis when REDIS_URL is set (a Redis outage
 * falls back to this node's own count rather than refusing traffic).
 */
export class NetworkRateLimiter {
  private readonly windows = new Map<string, { second: number; count: number }>();

  constructor(private readonly redis?: Redis) {}

  /** True when every decision is made in this node's memory (take never answers a promise). */
  get isLocal(): boolean {
    return !this.redis;
  }

  /** Takes `cost` calls from the key's window: decides at once when counting in memory; a promise only when Redis is asked. */
  take(key: string, limit: number, cost: number, nowMs = Date.now()): RateDecision | Promise<RateDecision> {
    return this.redis ? this.takeShared(this.redis, key, limit, cost, nowMs) : this.takeLocal(key, limit, cost, nowMs);
  }

  private async takeShared(redis: Redis, key: string, limit: number, cost: number, nowMs: number) {
    const second = Math.floor(nowMs / 1000);
    try {
      const redisKey = `gateway-rl:${key}:${second}`;
      const result = await redis.multi().incrby(redisKey, cost).pexpire(redisKey, 2_000).exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      return count <= limit ? ALLOWED : { allowed: false as const, retryAfterSeconds: retryAfter(nowMs) };
    } catch {
      // Fall back to the local window.
      return this.takeLocal(key, limit, cost, nowMs);
    }
  }

  private takeLocal(key: string, limit: number, cost: number, nowMs: number): RateDecision {
    const second = Math.floor(nowMs / 1000);
    let window = this.windows.get(key);
    if (!window || window.second !== second) {
      if (this.windows.size > 100_000) this.windows.clear();
      window = { second, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count + cost > limit) return { allowed: false, retryAfterSeconds: retryAfter(nowMs) };
    window.count += cost;
    return ALLOWED;
  }
}
