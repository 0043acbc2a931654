import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { accountNetworks, networks, privateNetworks, users, type Database } from '@connect/db';
import type { KycStatus, TPrivateNetworkRequest, TPrivateNetworkStatus } from '@connect/shared';
import type { DomainEvents, EventType } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { AuditLogRepository } from '../../repositories/audit-log.ts';
import { Entitlements } from '../entitlements/index.ts';

export type NetworkRow = typeof networks.$inferSelect;
export type PrivateNetworkRow = typeof privateNetworks.$inferSelect;
export type ActivatedNetworkRow = NetworkRow & { activatedAt: Date };
/** Statuses whose name still counts for uniqueness within the account. */
const NAME_HOLDING_STATUSES: TPrivateNetworkStatus[] = ['UNDER_REVIEW', 'ACTIVE', 'REMOVAL_REQUESTED'];

/** The only code of the integrate service that touches its tables; it announces its events too. */
export class IntegrateRepository {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  transaction<T>(work: (repo: IntegrateRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new IntegrateRepository(tx as unknown as Database, this.events)));
  }

  /** Emits a domain event with this repository's database: inside `transaction`, it exists only if the change commits. */
  async announce<K extends EventType>(type: K, payload: DomainEvents[K]): Promise<void> {
    await this.events.emit(this.db, type, payload);
  }

  /**
   * What the account may have (entitlements), read over this repository's connection: inside
   * `transaction`, `allowances(id, { forUpdate: true })` locks the account until it ends.
   */
  entitlements(): Entitlements {
    return new Entitlements(this.db);
  }

  /** The audit log over this repository's connection: inside `transaction`, an entry commits with the change. */
  audit(): AuditLogRepository {
    return new AuditLogRepository(this.db);
  }

  /** The user's identity-verification status read now (the request's cached user may be a second old). */
  async kycStatus(userId: string): Promise<KycStatus> {
    const [row] = await this.db.select({ kycStatus: users.kycStatus }).from(users).where(eq(users.id, userId));
    return row?.kycStatus ?? 'UNVERIFIED';
  }

  async catalogue(): Promise<NetworkRow[]> {
    return this.db.select().from(networks).orderBy(asc(networks.sortOrder), asc(networks.name));
  }

  async networksByIds(ids: string[]): Promise<NetworkRow[]> {
    if (!ids.length) return [];
    return this.db.select().from(networks).where(inArray(networks.id, ids));
  }

  /** Catalogue networks the account activated, with when. */
  async activatedNetworks(accountId: string, networkType?: 'testnet' | 'mainnet'): Promise<ActivatedNetworkRow[]> {
    const rows = await this.db
      .select({ network: networks, activatedAt: accountNetworks.activatedAt })
      .from(accountNetworks)
      .innerJoin(networks, eq(networks.id, accountNetworks.networkId))
      .where(
        and(eq(accountNetworks.accountId, accountId), networkType ? eq(networks.networkType, networkType) : undefined),
      )
      .orderBy(asc(networks.sortOrder), asc(networks.name));
    return rows.map((row) => ({ ...row.network, activatedAt: row.activatedAt }));
  }

  async activate(accountId: string, userId: string, networkIds: string[]): Promise<void> {
    if (!networkIds.length) return;
    await this.db
      .insert(accountNetworks)
      .values(networkIds.map((networkId) => ({ accountId, networkId, activatedBy: userId })))
      .onConflictDoNothing();
  }

  async privateNetworks(accountId: string): Promise<PrivateNetworkRow[]> {
    return this.db
      .select()
      .from(privateNetworks)
      .where(eq(privateNetworks.accountId, accountId))
      .orderBy(desc(privateNetworks.createdAt), asc(privateNetworks.name));
  }

  /** A private network of this account, or null — another account's id is as good as unknown. */
  async privateNetwork(
    id: string,
    accountId: string | null,
    options: { forUpdate?: boolean } = {},
  ): Promise<PrivateNetworkRow | null> {
    const query = this.db
      .select()
      .from(privateNetworks)
      .where(and(eq(privateNetworks.id, id), accountId ? eq(privateNetworks.accountId, accountId) : undefined));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  }

  /** Whether the account already holds this name (case-insensitively) on a network not rejected or removed. */
  async privateNameTaken(accountId: string, name: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: privateNetworks.id })
      .from(privateNetworks)
      .where(
        and(
          eq(privateNetworks.accountId, accountId),
          sql`lower(${privateNetworks.name}) = lower(${name})`,
          inArray(privateNetworks.status, NAME_HOLDING_STATUSES),
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async insertPrivateNetwork(accountId: string, userId: string, input: TPrivateNetworkRequest) {
    const [row] = await this.db
      .insert(privateNetworks)
      .values({
        accountId,
        createdBy: userId,
        name: input.name,
        environment: input.networkType,
        chainId: input.chainId,
        eip1559: input.eip1559,
        blocksForSuccess: input.numberOfBlocks,
        rpcUrl: input.url,
        tokenSymbol: input.tokenSymbol,
        tokenDecimals: input.tokenDecimals,
        nodeType: input.nodeType,
        status: 'UNDER_REVIEW',
      })
      .returning();
    return row!;
  }

  async updatePrivateNetwork(
    id: string,
    changes: Partial<
      Pick<PrivateNetworkRow, 'status' | 'reviewedAt' | 'reviewNote' | 'removalRequestedAt' | 'removedAt'>
    >,
  ): Promise<PrivateNetworkRow> {
    const [row] = await this.db
      .update(privateNetworks)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(privateNetworks.id, id))
      .returning();
    return row!;
  }
}
