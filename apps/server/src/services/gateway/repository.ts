import { sql } from 'drizzle-orm';
import {
  applicationMonthSpend,
  applications,
  gatewayUsageHourly,
  networks,
  type Database,
  type DbHandle,
} from '@connect/db';
import { capState } from '@connect/shared';
import type { DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { AppSettingRepository } from '../../repositories/app-settings.ts';
import { recordCapAlerts } from '../../repositories/cap-alerts.ts';
import { ALLOWANCES_RELATION } from '../entitlements/index.ts';

/**
 * A client secret that admits tokens now: not revoked, not expired. `isAccountActive` is false
 * while its application's account is not ACTIVE (staff removed its last active user): the secret
 * is then refused like a revoked one until a user is restored.
 */
export type LiveClientSecret = {
  secretId: string;
  hash: string;
  applicationId: string;
  accountId: string;
  isAccountActive: boolean;
};

/**
 * What the gateway needs to know of a secret to let its tokens through: the secret's own state,
 * and whether its application's account is ACTIVE (read in the same statement, so it costs no
 * extra query).
 */
export type SecretValidity = { isRevoked: boolean; expiresAtMs: number | null; isAccountActive: boolean };

/** An application's view of a network: where it is, and whether the application may use it. */
export type RouteFacts = {
  networkId: string;
  networkName: string;
  rpcUrl: string | null;
  /** Calls per second per account on this network: the account's plan's (what the plans table sells), or its override. */
  rateLimit: number;
  accountId: string;
  /** The account's plan is in service (entitlements); if not, calls are refused. */
  inService: boolean;
  /** The network is one of the application's networks. */
  isAssociated: boolean;
  /** The application's account has the network active (My networks). */
  isActive: boolean;
  /** The application's monthly spending cap (micro-credits), null without one. */
  capMicro: number | null;
  /** What its gateway calls cost in the asked UTC month so far (micro-credits, every node's flushes). */
  monthMicro: number;
};

/** One flush's count of one method's calls, in one UTC hour (ISO), with their price: the event's count without its account. */
export type UsageCount = Omit<DomainEvents['gateway.usage_counted']['counts'][number], 'accountId'>;

/** What a flush did beyond counting: the applications whose month's spend is now at or over their cap. */
export type UsageAdded = { capReached: string[] };

/** The app_settings key of the access-token key. */
export const ACCESS_TOKEN_KEY_SETTING = 'gateway.token_key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every query of the platform API (the OAuth2 token endpoint and the JSON-RPC gateway). The
 * per-request reads are named prepared statements (parsed once per connection on PostgreSQL);
 * they run at most once per secret or route every GATEWAY_CACHE_MS, the caches in front of them
 * answer the rest.
 */
export class GatewayRepository {
  constructor(private readonly dbh: Pick<DbHandle, 'db' | 'query'>) {}

  /** The secret of this client with this hash, when it is neither revoked nor expired, and whether its account is ACTIVE. */
  async findLiveClientSecret(clientId: string, hash: string): Promise<LiveClientSecret | undefined> {
    const { rows } = await this.dbh.query(
      `select s.id as "secretId", s.secret_hash as "hash", a.id as "applicationId", a.account_id as "accountId",
         ac.status = 'ACTIVE' as "isAccountActive"
       from applications a join application_secrets s on s.application_id = a.id
         join accounts ac on ac.id = a.account_id
       where a.client_id = $1 and s.secret_hash = $2 and s.revoked_at is null
         and (s.expires_at is null or s.expires_at > now())`,
      [clientId, hash],
      { name: 'oauth_client_secret' },
    );
    return rows[0] as LiveClientSecret | undefined;
  }

  /**
   * Whether the application's secret is revoked, when it expires and whether the application's
   * account is ACTIVE; undefined when there is no such secret. The two joins are primary-key
   * look-ups in the one statement the credential cache already runs (at most once per secret
   * every GATEWAY_CACHE_MS): the account's status costs the gateway no query of its own.
   */
  async findSecretValidity(secretId: string, applicationId: string): Promise<SecretValidity | undefined> {
    const { rows } = await this.dbh.query(
      `select s.revoked_at as "revokedAt", s.expires_at as "expiresAt", ac.status = 'ACTIVE' as "isAccountActive"
       from application_secrets s join applications a on a.id = s.application_id
         join accounts ac on ac.id = a.account_id
       where s.id = $1 and s.application_id = $2`,
      [secretId, applicationId],
      { name: 'gateway_secret' },
    );
    const row = rows[0] as { revokedAt: unknown; expiresAt: unknown; isAccountActive: unknown } | undefined;
    if (!row) return undefined;
    return {
      isRevoked: Boolean(row.revokedAt),
      expiresAtMs: row.expiresAt ? new Date(row.expiresAt as string | Date).getTime() : null,
      isAccountActive: row.isAccountActive === true,
    };
  }

  /**
   * The network named by id or code (`/api/gateway/ethereum-testnet`) as the application sees
   * it, with what the account's plan allows now (its rate limit, whether it is in service);
   * undefined when there is no such network (or application). An account without a plan row
   * (none since migration 0009) is out of service. `month` (the first day of a UTC month, the
   * node's) is the month whose spend is read against the application's cap.
   */
  async findRoute(applicationId: string, network: string, month: string): Promise<RouteFacts | undefined> {
    const isUuid = UUID.test(network);
    const { rows } = await this.dbh.query(
      `select n.id as "networkId", n.name as "networkName", n.rpc_url as "rpcUrl",
         coalesce(al.rate_limit, 0) as "rateLimit",
         a.account_id as "accountId", coalesce(al.in_service, false) as "inService",
         exists(select 1 from application_networks an where an.application_id = a.id and an.network_id = n.id) as "isAssociated",
         exists(select 1 from account_networks acn where acn.account_id = a.account_id and acn.network_id = n.id) as "isActive",
         a.monthly_cap_micro as "capMicro", coalesce(ms.micro_credits, 0) as "monthMicro"
       from applications a join networks n on ${isUuid ? 'n.id = $2::uuid' : 'n.code = $2'}
         left join ${ALLOWANCES_RELATION} al on al.account_id = a.account_id
         left join application_month_spend ms on ms.application_id = a.id and ms.month = $3::date
       where a.id = $1`,
      [applicationId, network, month],
      { name: isUuid ? 'gateway_route_id' : 'gateway_route_code' },
    );
    const row = rows[0] as RouteFacts | undefined;
    return (
      row && {
        ...row,
        rateLimit: Number(row.rateLimit),
        capMicro: row.capMicro === null ? null : Number(row.capMicro),
        monthMicro: Number(row.monthMicro),
      }
    );
  }

  /**
   * Adds a flush's counts to gateway_usage_hourly and their micro-credits to each application's
   * UTC month in application_month_spend (one statement for all rows), and announces them as one
   * gateway.usage_counted, in one transaction: the event exists exactly when the counts do. Counts
   * of an application or network deleted meanwhile are dropped (the locks keep a deletion from
   * slipping in between the check and the write).
   *
   * The statement answers each application's new month total; a capped application at 85 % or
   * 100 % of its cap then gets its alerts (see capAlerts), and the applications at 100 % are
   * answered so this node's gateway stops admitting their calls at once.
   */
  async addUsage(rows: UsageCount[], events: EventBus): Promise<UsageAdded> {
    if (!rows.length) return { capReached: [] };
    const counted = sql.join(
      rows.map(
        (row) =>
          sql`(${row.applicationId}::uuid, ${row.networkId}::uuid, ${row.method}::text, ${row.hour}::timestamptz, ${row.calls}::bigint, ${row.microCredits}::bigint)`,
      ),
      sql`, `,
    );
    return this.dbh.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const result = (await tx.execute(sql`
        with counted (application_id, network_id, method, hour, calls, micro_credits) as (values ${counted}),
        kept as (
          select c.application_id, c.network_id, c.method, c.hour, c.calls, c.micro_credits, a.account_id,
            a.monthly_cap_micro as cap_micro, date_trunc('month', c.hour at time zone 'UTC')::date as month
          from counted c
          join ${applications} a on a.id = c.application_id
          join ${networks} n on n.id = c.network_id
          for key share of a, n
        ),
        added as (
          insert into ${gatewayUsageHourly} (application_id, network_id, method, hour, account_id, calls, micro_credits)
          select application_id, network_id, method, hour, account_id, calls, micro_credits from kept
          order by application_id, network_id, method, hour
          on conflict (application_id, network_id, method, hour) do update
          set calls = ${gatewayUsageHourly}.calls + excluded.calls,
            micro_credits = ${gatewayUsageHourly}.micro_credits + excluded.micro_credits
        ),
        spent as (
          insert into ${applicationMonthSpend} (application_id, month, micro_credits)
          select application_id, month, sum(micro_credits) from kept group by application_id, month
          order by application_id, month
          on conflict (application_id, month) do update
          set micro_credits = ${applicationMonthSpend}.micro_credits + excluded.micro_credits
          returning application_id, month, micro_credits
        )
        select k.account_id as "accountId", k.application_id as "applicationId", k.network_id as "networkId",
          k.method, to_char(k.hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "hour",
          k.calls, k.micro_credits as "microCredits", to_char(k.month, 'YYYY-MM-DD') as "month",
          s.micro_credits as "monthMicro", k.cap_micro as "capMicro"
        from kept k join spent s on s.application_id = k.application_id and s.month = k.month`)) as unknown as {
        rows: (DomainEvents['gateway.usage_counted']['counts'][number] & {
          month: string;
          monthMicro: unknown;
          capMicro: unknown;
        })[];
      };
      if (!result.rows.length) return { capReached: [] };
      // The month totals near a cap: the only ones that need the alerts' statement.
      const nearCap = new Map<string, { applicationId: string; month: string; monthMicro: number }>();
      const counts = result.rows.map(({ month, monthMicro, capMicro, ...count }) => {
        const total = Number(monthMicro);
        if (capState(total, capMicro === null ? null : Number(capMicro)) !== 'OK') {
          nearCap.set(`${count.applicationId}|${month}`, {
            applicationId: count.applicationId,
            month,
            monthMicro: total,
          });
        }
        return { ...count, calls: Number(count.calls), microCredits: Number(count.microCredits) };
      });
      await events.emit(tx, 'gateway.usage_counted', { counts });
      return { capReached: nearCap.size ? await recordCapAlerts(tx, events, [...nearCap.values()]) : [] };
    });
  }

  /** The stored (sealed) access-token key; the first node to start stores `create()`, every node uses it. */
  loadOrCreateAccessTokenKey(create: () => string): Promise<string> {
    return new AppSettingRepository(this.dbh.db).readOrCreate(ACCESS_TOKEN_KEY_SETTING, create);
  }
}
