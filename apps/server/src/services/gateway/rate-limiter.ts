import type { Redis } from 'ioredis';
import { MAX_BATCH } from './methods.ts';

/** Allowed, or refused with the whole seconds until the calls will be there (null: never, a rate of 0). */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number | null };

const ALLOWED: RateDecision = { allowed: true };
const NEVER: RateDecision = { allowed: false, retryAfterSeconds: null };

/** A bucket holds a second's calls, and never fewer than the largest batch the gateway takes. */
export const burstOf = (rate: number) => Math.max(rate, MAX_BATCH);

/** Refused: the whole seconds until `cost` calls have come back at `rate` a second (at least 1). */
const refused = (tokens: number, rate: number, cost: number): RateDecision => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / rate - 1e-9)),
});

/**
 * One token bucket per key in Redis, atomically: refilled at ARGV[1] calls a second up to ARGV[2],
 * takes ARGV[3] when there are that many, at the caller's time ARGV[4] in ms (a node whose clock
 * is behind refills nothing). Answers {1} or {0, tokens left} (as a string: Lua numbers become
 * integers on the way out). The key lives until the bucket would be full again.
 */
const TAKE_SCRIPT = `
local rate, burst, cost, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens, at = tonumber(state[1]), tonumber(state[2])
if tokens == nil or at == nil then tokens, at = burst, now end
if now > at then tokens, at = math.min(burst, tokens + (now - at) * rate / 1000), now end
local allowed = 0
if tokens >= cost then tokens, allowed = tokens - cost, 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
if allowed == 1 then return {1} end
return {0, tostring(tokens)}
`;

type ScriptedRedis = Redis & {
  gatewayTake(key: string, rate: number, burst: number, cost: number, nowMs: number): Promise<[number, string?]>;
};

/**
 * Calls per second per account and network (the plan's `rate_limit`) as a token bucket: it
 * refills at the rate and holds `burstOf(rate)` calls, so a batch of up to MAX_BATCH calls always
 * fits a full bucket, a steady rate is never refused, and the Retry-After of a refusal is when the
 * calls will really be there. In memory per node, or shared through Redis when REDIS_URL is set
 * (a Redis outage falls back to this node's own bucket rather than refusing traffic).
 */
export class NetworkRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();
  private readonly redis: ScriptedRedis | undefined;

  constructor(redis?: Redis) {
    if (redis && !('gatewayTake' in redis)) redis.defineCommand('gatewayTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as ScriptedRedis | undefined;
  }

  /** True when every decision is made in this node's memory (take never answers a promise). */
  get isLocal(): boolean {
    return !this.redis;
  }

  /** Takes `cost` calls from the key's bucket: decides at once when counting in memory; a promise only when Redis is asked. */
  take(key: string, rate: number, cost: number, nowMs = Date.now()): RateDecision | Promise<RateDecision> {
    if (!(rate > 0) || cost > burstOf(rate)) return NEVER;
    return this.redis ? this.takeShared(this.redis, key, rate, cost, nowMs) : this.takeLocal(key, rate, cost, nowMs);
  }

  private async takeShared(redis: ScriptedRedis, key: string, rate: number, cost: number, nowMs: number) {
    try {
      const [allowed, tokens] = await redis.gatewayTake(`gateway-tb:${key}`, rate, burstOf(rate), cost, nowMs);
      return allowed === 1 ? ALLOWED : refused(Number(tokens), rate, cost);
    } catch {
      // Fall back to the local bucket.
      return this.takeLocal(key, rate, cost, nowMs);
    }
  }

  private takeLocal(key: string, rate: number, cost: number, nowMs: number): RateDecision {
    const burst = burstOf(rate);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size > 100_000) this.buckets.clear();
      bucket = { tokens: burst, atMs: nowMs };
      this.buckets.set(key, bucket);
    } else if (nowMs > bucket.atMs) {
      bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.atMs) * rate) / 1000);
      bucket.atMs = nowMs;
    }
    if (bucket.tokens < cost) return refused(bucket.tokens, rate, cost);
    bucket.tokens -= cost;
    return ALLOWED;
  }
}
