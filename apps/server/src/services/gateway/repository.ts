import { sql } from 'drizzle-orm';
import { applications, applicationUsageDaily, networks, type Database, type DbHandle } from '@connect/db';
import type { DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { AppSettingRepository } from '../../repositories/app-settings.ts';

/** A client secret that admits tokens now: not revoked, not expired. */
export type LiveClientSecret = { secretId: string; hash: string; applicationId: string; accountId: string };

/** What the gateway needs to know of a secret to let its tokens through. */
export type SecretValidity = { isRevoked: boolean; expiresAtMs: number | null };

/** An application's view of a network: where it is, and whether the application may use it. */
export type RouteFacts = {
  networkId: string;
  networkName: string;
  rpcUrl: string | null;
  /** Calls per second per account: the lower of the network's limit and the account's plan's. */
  rateLimit: number;
  /** The plan's limit is the lower one (said in the refusal). */
  isPlanRateLimit: boolean;
  accountId: string;
  /** The account's plan is in service (the `account_allowances` view); if not, calls are refused. */
  inService: boolean;
  /** The network is one of the application's networks. */
  isAssociated: boolean;
  /** The application's account has the network active (My networks). */
  isActive: boolean;
};

export type UsageCount = { applicationId: string; networkId: string; day: string; requests: number };

/** The app_settings key of the access-token key. */
const ACCESS_TOKEN_KEY_SETTING = 'gateway.token_key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every query of the platform API (the OAuth2 token endpoint and the JSON-RPC gateway). The
 * per-request reads are named prepared statements (parsed once per connection on PostgreSQL);
 * they run at most once per secret or route every GATEWAY_CACHE_MS, the caches in front of them
 * answer the rest.
 */
export class GatewayRepository {
  constructor(private readonly dbh: Pick<DbHandle, 'db' | 'query'>) {}

  /** The secret of this client with this hash, when it is neither revoked nor expired. */
  async findLiveClientSecret(clientId: string, hash: string): Promise<LiveClientSecret | undefined> {
    const { rows } = await this.dbh.query(
      `select s.id as "secretId", s.secret_hash as "hash", a.id as "applicationId", a.account_id as "accountId"
       from applications a join application_secrets s on s.application_id = a.id
       where a.client_id = $1 and s.secret_hash = $2 and s.revoked_at is null
         and (s.expires_at is null or s.expires_at > now())`,
      [clientId, hash],
      { name: 'oauth_client_secret' },
    );
    return rows[0] as LiveClientSecret | undefined;
  }

  /** Whether the application's secret is revoked and when it expires; undefined when there is no such secret. */
  async findSecretValidity(secretId: string, applicationId: string): Promise<SecretValidity | undefined> {
    const { rows } = await this.dbh.query(
      `select s.revoked_at as "revokedAt", s.expires_at as "expiresAt" from application_secrets s
       where s.id = $1 and s.application_id = $2`,
      [secretId, applicationId],
      { name: 'gateway_secret' },
    );
    const row = rows[0] as { revokedAt: unknown; expiresAt: unknown } | undefined;
    if (!row) return undefined;
    return {
      isRevoked: Boolean(row.revokedAt),
      expiresAtMs: row.expiresAt ? new Date(row.expiresAt as string | Date).getTime() : null,
    };
  }

  /**
   * The network named by id or code (`/api/gateway/ethereum-testnet`) as the application sees
   * it, with what the account's plan allows now (its rate limit, whether it is in service);
   * undefined when there is no such network (or application). An account without a plan row
   * (none since migration 0009) is out of service.
   */
  async findRoute(applicationId: string, network: string): Promise<RouteFacts | undefined> {
    const isUuid = UUID.test(network);
    const { rows } = await this.dbh.query(
      `select n.id as "networkId", n.name as "networkName", n.rpc_url as "rpcUrl",
         least(n.rate_limit, al.rate_limit) as "rateLimit", coalesce(al.rate_limit < n.rate_limit, false) as "isPlanRateLimit",
         a.account_id as "accountId", coalesce(al.in_service, false) as "inService",
         exists(select 1 from application_networks an where an.application_id = a.id and an.network_id = n.id) as "isAssociated",
         exists(select 1 from account_networks acn where acn.account_id = a.account_id and acn.network_id = n.id) as "isActive"
       from applications a join networks n on ${isUuid ? 'n.id = $2::uuid' : 'n.code = $2'}
         left join account_allowances al on al.account_id = a.account_id
       where a.id = $1`,
      [applicationId, network],
      { name: isUuid ? 'gateway_route_id' : 'gateway_route_code' },
    );
    const row = rows[0] as RouteFacts | undefined;
    return row && { ...row, rateLimit: Number(row.rateLimit) };
  }

  /**
   * Adds a flush's counted requests to application_usage_daily (one statement for all rows) and
   * announces them as one gateway.usage_counted, in one transaction: the event exists exactly when
   * the counts do. Counts of an application or network deleted meanwhile are dropped (the locks
   * keep a deletion from slipping in between the check and the write).
   */
  async addUsage(rows: UsageCount[], events: EventBus): Promise<void> {
    if (!rows.length) return;
    const counted = sql.join(
      rows.map(
        (row) => sql`(${row.applicationId}::uuid, ${row.networkId}::uuid, ${row.day}::date, ${row.requests}::int)`,
      ),
      sql`, `,
    );
    await this.dbh.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const result = (await tx.execute(sql`
        with counted (application_id, network_id, day, requests) as (values ${counted}),
        kept as (
          select c.application_id, c.network_id, c.day, c.requests, a.account_id
          from counted c
          join ${applications} a on a.id = c.application_id
          join ${networks} n on n.id = c.network_id
          for key share of a, n
        ),
        added as (
          insert into ${applicationUsageDaily} (application_id, network_id, day, requests)
          select application_id, network_id, day, requests from kept
          on conflict (application_id, network_id, day)
          do update set requests = ${applicationUsageDaily}.requests + excluded.requests
        )
        select account_id as "accountId", application_id as "applicationId", network_id as "networkId",
          to_char(day, 'YYYY-MM-DD') as "day", requests as "calls"
        from kept`)) as unknown as { rows: DomainEvents['gateway.usage_counted']['counts'] };
      if (result.rows.length) await events.emit(tx, 'gateway.usage_counted', { counts: result.rows });
    });
  }

  /** The stored (sealed) access-token key; the first node to start stores `create()`, every node uses it. */
  loadOrCreateAccessTokenKey(create: () => string): Promise<string> {
    return new AppSettingRepository(this.dbh.db).readOrCreate(ACCESS_TOKEN_KEY_SETTING, create);
  }
}
