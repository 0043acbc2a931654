import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { applicationUsageDaily, type DbHandle } from '@connect/db';

/** How long a node trusts what it read about a secret or a route (revocations on other nodes wait this long). */
export const GATEWAY_CACHE_MS = 2_000;
/** How often counted requests are written to application_usage_daily. */
export const USAGE_FLUSH_MS = 1_000;

type SecretEntry = { applicationId: string; isValid: boolean; checkedUntilMs: number };

/**
 * Whether a client secret still admits its tokens: not revoked, not past its expiry, its
 * application not deleted. One indexed read per secret every GATEWAY_CACHE_MS at most; the
 * application manager drops the entries of an application it changes on this node at once.
 */
export class SecretValidity {
  private readonly entries = new Map<string, SecretEntry>();

  constructor(private readonly dbh: Pick<DbHandle, 'query'>) {}

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
    const { rows } = await this.dbh.query(
      `select s.revoked_at as "revokedAt", s.expires_at as "expiresAt" from application_secrets s
       where s.id = $1 and s.application_id = $2`,
      [secretId, applicationId],
      { name: 'gateway_secret' },
    );
    const row = rows[0] as { revokedAt: unknown; expiresAt: unknown } | undefined;
    const expiresAtMs = row?.expiresAt ? new Date(row.expiresAt as string | Date).getTime() : null;
    const isValid = Boolean(row) && !row!.revokedAt && (expiresAtMs === null || expiresAtMs > nowMs);
    // A secret about to expire is re-read when it does, not up to GATEWAY_CACHE_MS later.
    const until = Math.min(nowMs + GATEWAY_CACHE_MS, isValid && expiresAtMs !== null ? expiresAtMs : Infinity);
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(secretId, { applicationId, isValid, checkedUntilMs: until });
    return isValid;
  }

  forgetApplication(applicationId: string): void {
    for (const [key, entry] of this.entries) if (entry.applicationId === applicationId) this.entries.delete(key);
  }
}

export type GatewayRoute =
  | { kind: 'ok'; networkId: string; accountId: string; rpcUrl: string; rateLimit: number }
  | { kind: 'unknown-network' }
  | { kind: 'not-associated' }
  | { kind: 'not-active' }
  | { kind: 'no-rpc'; networkName: string };

type RouteEntry = { applicationId: string; route: GatewayRoute; checkedUntilMs: number };

/**
 * Where an application's requests for a network go, and whether they may: the network must be
 * associated with the application and active (activated) for the application's account. The
 * network is named by id or code (`/api/gateway/ethereum-testnet`).
 */
export class GatewayRoutes {
  private readonly entries = new Map<string, RouteEntry>();

  constructor(private readonly dbh: Pick<DbHandle, 'query'>) {}

  /** The route this node knows without reading the database, or undefined when it must (see resolve). */
  known(applicationId: string, network: string, nowMs = Date.now()): GatewayRoute | undefined {
    const cached = this.entries.get(`${applicationId}|${network}`);
    return cached && cached.checkedUntilMs > nowMs ? cached.route : undefined;
  }

  async resolve(applicationId: string, network: string, nowMs = Date.now()): Promise<GatewayRoute> {
    const key = `${applicationId}|${network}`;
    const cached = this.entries.get(key);
    if (cached && cached.checkedUntilMs > nowMs) return cached.route;
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(network);
    const { rows } = await this.dbh.query(
      `select n.id, n.name, n.rpc_url as "rpcUrl", n.rate_limit as "rateLimit", a.account_id as "accountId",
         exists(select 1 from application_networks an where an.application_id = a.id and an.network_id = n.id) as "associated",
         exists(select 1 from account_networks acn where acn.account_id = a.account_id and acn.network_id = n.id) as "active"
       from applications a join networks n on ${isUuid ? 'n.id = $2::uuid' : 'n.code = $2'}
       where a.id = $1`,
      [applicationId, network],
      { name: isUuid ? 'gateway_route_id' : 'gateway_route_code' },
    );
    const row = rows[0] as
      | {
          id: string;
          name: string;
          rpcUrl: string | null;
          rateLimit: number;
          accountId: string;
          associated: boolean;
          active: boolean;
        }
      | undefined;
    let route: GatewayRoute;
    if (!row) route = { kind: 'unknown-network' };
    else if (!row.associated) route = { kind: 'not-associated' };
    else if (!row.active) route = { kind: 'not-active' };
    else if (!row.rpcUrl) route = { kind: 'no-rpc', networkName: row.name };
    else
      route = {
        kind: 'ok',
        networkId: row.id,
        accountId: row.accountId,
        rpcUrl: row.rpcUrl,
        rateLimit: Number(row.rateLimit),
      };
    if (this.entries.size > 50_000) this.entries.clear();
    this.entries.set(key, { applicationId, route, checkedUntilMs: nowMs + GATEWAY_CACHE_MS });
    return route;
  }

  forgetApplication(applicationId: string): void {
    for (const [key, entry] of this.entries) if (entry.applicationId === applicationId) this.entries.delete(key);
  }
}

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

  /** Decides at once when counting in memory; a promise only when Redis is asked. */
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

/**
 * Counts gateway requests per application, network and UTC day in memory and adds them to
 * application_usage_daily in one statement per flush, so the database is not written on every
 * request. Call flush() on shutdown; counts of an application deleted meanwhile are dropped.
 */
export class UsageRecorder {
  private pending = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  /** The UTC day of the last record and when it ends: formatting a date on every request costs. */
  private day = '';
  private dayEndsMs = 0;

  constructor(
    private readonly dbh: Pick<DbHandle, 'db'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  record(applicationId: string, networkId: string, requests: number, nowMs = Date.now()): void {
    if (nowMs >= this.dayEndsMs || nowMs < this.dayEndsMs - 86_400_000) {
      this.day = new Date(nowMs).toISOString().slice(0, 10);
      this.dayEndsMs = Date.parse(`${this.day}T00:00:00.000Z`) + 86_400_000;
    }
    const key = `${applicationId}|${networkId}|${this.day}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + requests);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes what was counted so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    const rows = [...batch].map(([key, requests]) => {
      const [applicationId, networkId, day] = key.split('|') as [string, string, string];
      return { applicationId, networkId, day, requests };
    });
    try {
      await this.upsert(rows);
    } catch {
      // Most likely an application deleted since its requests were counted: keep the others.
      for (const row of rows) {
        try {
          await this.upsert([row]);
        } catch (error) {
          this.onError(error);
        }
      }
    }
  }

  private async upsert(rows: (typeof applicationUsageDaily.$inferInsert)[]): Promise<void> {
    await this.dbh.db
      .insert(applicationUsageDaily)
      .values(rows)
      .onConflictDoUpdate({
        target: [applicationUsageDaily.applicationId, applicationUsageDaily.networkId, applicationUsageDaily.day],
        set: { requests: sql`${applicationUsageDaily.requests} + excluded.requests` },
      });
  }
}
