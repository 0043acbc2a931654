import { eq, inArray, isNull, and, sql } from 'drizzle-orm';
import { networks, type Database, type NetworkHealth } from '@connect/db';

/** A seeded network as written at start-up (adapters/chains/catalogue.ts decides the values). */
export type CatalogueSeedRow = Pick<
  typeof networks.$inferInsert,
  | 'code'
  | 'name'
  | 'networkType'
  | 'technology'
  | 'description'
  | 'chainId'
  | 'rpcUrl'
  | 'explorerUrl'
  | 'rateLimit'
  | 'isLocal'
  | 'sortOrder'
  | 'health'
>;

/** Advisory lock key space of the health monitor: (class, hash of the network id). */
const LOCK_CLASS = 0x4e4d4f4e; // 'NMON'
const lockKey = (networkId: string) => Number.parseInt(networkId.replace(/-/g, '').slice(0, 8), 16) | 0;

/**
 * The network catalogue's writes at start-up and the health monitor's reads and writes
 * (adapters/chains/catalogue.ts, monitor.ts). Built over the database or a transaction.
 */
export class NetworkCatalogueRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts or updates the seeded networks by code (the rules: syncNetworkCatalogue). A row given
   * without an RPC URL keeps the one recorded, with what goes with it (name, `is_local`, chain id,
   * health): that is another node's, never cleared by a node that has none (issue 31).
   */
  async upsertSeeds(rows: CatalogueSeedRow[]): Promise<void> {
    const url = sql`coalesce(excluded.rpc_url, ${networks.rpcUrl})`;
    const changedUrl = sql`${networks.rpcUrl} is distinct from ${url}`;
    // The recorded URL stays: so do the fields that describe the chain behind it.
    const keeps = sql`excluded.rpc_url is null and ${networks.rpcUrl} is not null`;
    await this.db
      .insert(networks)
      .values(rows)
      .onConflictDoUpdate({
        target: networks.code,
        set: {
          name: sql`case when ${keeps} then ${networks.name} else excluded.name end`,
          networkType: sql`excluded.network_type`,
          technology: sql`excluded.technology`,
          description: sql`excluded.description`,
          chainId: sql`case when ${keeps} then ${networks.chainId} else excluded.chain_id end`,
          rpcUrl: url,
          explorerUrl: sql`excluded.explorer_url`,
          isLocal: sql`case when ${keeps} then ${networks.isLocal} else excluded.is_local end`,
          sortOrder: sql`excluded.sort_order`,
          health: sql`case when ${url} is null then 'NOT_CONFIGURED' when ${changedUrl} then 'OFFLINE' else ${networks.health} end`,
          latestBlock: sql`case when ${changedUrl} or ${url} is null then null else ${networks.latestBlock} end`,
          healthCheckedAt: sql`case when ${changedUrl} or ${url} is null then null else ${networks.healthCheckedAt} end`,
          updatedAt: sql`now()`,
        },
      });
  }

  /**
   * The QNT token on the network `networkCode`, and none on every other network: QNT is taken on
   * one network. Rows already right are not written.
   */
  async recordQntToken(networkCode: string, address: string): Promise<void> {
    const wanted = sql`case when ${networks.code} = ${networkCode} then ${address}::text end`;
    await this.db
      .update(networks)
      .set({ qntTokenAddress: wanted, updatedAt: sql`now()` })
      .where(sql`${networks.qntTokenAddress} is distinct from ${wanted}`);
  }

  /** What the catalogue records of each network's chain and of the QNT token, in catalogue order. */
  recorded() {
    return this.db
      .select({
        code: networks.code,
        name: networks.name,
        networkType: networks.networkType,
        chainId: networks.chainId,
        rpcUrl: networks.rpcUrl,
        qntTokenAddress: networks.qntTokenAddress,
      })
      .from(networks)
      .orderBy(networks.sortOrder, networks.code);
  }

  /**
   * Takes the monitor's lock on one network for the rest of this transaction (PostgreSQL:
   * pg_try_advisory_xact_lock, released at commit, also if the node dies); false when another
   * node holds it.
   */
  async tryLockHealthCheck(networkId: string): Promise<boolean> {
    const result = (await this.db.execute(
      sql`select pg_try_advisory_xact_lock(${LOCK_CLASS}::int, ${lockKey(networkId)}::int) as ok`,
    )) as unknown as { rows: { ok: boolean }[] };
    return !!result.rows[0]?.ok;
  }

  /** Every catalogue network, in catalogue order, with what the monitor needs to check it. */
  networksToCheck() {
    return this.db
      .select({
        id: networks.id,
        code: networks.code,
        chainId: networks.chainId,
        rpcUrl: networks.rpcUrl,
        health: networks.health,
      })
      .from(networks)
      .orderBy(networks.sortOrder, networks.code);
  }

  /** A network's RPC URL and last health result, as stored now. */
  async healthOf(networkId: string) {
    const [row] = await this.db
      .select({
        rpcUrl: networks.rpcUrl,
        health: networks.health,
        latestBlock: networks.latestBlock,
        checkedAt: networks.healthCheckedAt,
      })
      .from(networks)
      .where(eq(networks.id, networkId));
    return row;
  }

  async recordHealth(
    networkId: string,
    result: { health: NetworkHealth; latestBlock: number | null },
    at: Date,
  ): Promise<void> {
    await this.db
      .update(networks)
      .set({ health: result.health, latestBlock: result.latestBlock, healthCheckedAt: at })
      .where(eq(networks.id, networkId));
  }

  /** Networks whose RPC URL is gone: NOT_CONFIGURED, unless a URL came back meanwhile. */
  async markNotConfigured(networkIds: string[], at: Date): Promise<void> {
    if (networkIds.length === 0) return;
    await this.db
      .update(networks)
      .set({ health: 'NOT_CONFIGURED', latestBlock: null, healthCheckedAt: at })
      .where(and(inArray(networks.id, networkIds), isNull(networks.rpcUrl)));
  }
}
