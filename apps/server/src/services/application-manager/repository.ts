import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  accountNetworks,
  applicationNetworks,
  applications,
  applicationSecrets,
  gatewayUsageHourly,
  networks,
  type Database,
} from '@connect/db';
import type { ApplicationType } from '@connect/shared';
import type { DomainEvents, EventType } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { AuditLogRepository, type AuditActor, type AuditRecord } from '../../repositories/audit-log.ts';
import { Entitlements } from '../entitlements/index.ts';

export type ApplicationRow = typeof applications.$inferSelect;
export type SecretRow = typeof applicationSecrets.$inferSelect;
export type NetworkRow = typeof networks.$inferSelect;
export type NewApplication = typeof applications.$inferInsert;

export type ApplicationFilter = {
  accountId: string;
  search?: string | undefined;
  networkId?: string | undefined;
  applicationType?: ApplicationType | undefined;
};

/** `%` and `_` typed into the search box are literal characters, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The only code of the application manager that touches its tables. Built over the database or a
 * transaction (see `transaction`), so the service groups writes without knowing Drizzle; events
 * are announced through `announce`, with the same database or transaction.
 */
export class ApplicationRepository {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  transaction<T>(work: (repo: ApplicationRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ApplicationRepository(tx as unknown as Database, this.events)));
  }

  /** Emits a domain event with this repository's database: inside `transaction`, it exists only if the change commits. */
  async announce<K extends EventType>(type: K, payload: DomainEvents[K]): Promise<void> {
    await this.events.emit(this.db, type, payload);
  }

  /** A staff action's audit entry, with this repository's database: inside `transaction`, in the change's. */
  async audit(actor: AuditActor, entry: AuditRecord): Promise<void> {
    await new AuditLogRepository(this.db).record(actor, entry);
  }

  /**
   * What the account may have (entitlements) over this repository's connection: the applications
   * allowance is taken with `take(accountId, 'applications')` inside the creation's transaction.
   */
  entitlements(): Entitlements {
    return new Entitlements(this.db);
  }

  async nameTaken(accountId: string, nameKey: string, exceptId?: string): Promise<boolean> {
    const conditions = [eq(applications.accountId, accountId), eq(applications.nameKey, nameKey)];
    if (exceptId) conditions.push(sql`${applications.id} <> ${exceptId}`);
    const [row] = await this.db
      .select({ id: applications.id })
      .from(applications)
      .where(and(...conditions))
      .limit(1);
    return Boolean(row);
  }

  /** Networks the account has activated, optionally only of one type (what an application may use). */
  async activatedNetworks(accountId: string, networkType?: ApplicationType): Promise<NetworkRow[]> {
    const conditions: SQL[] = [eq(accountNetworks.accountId, accountId)];
    if (networkType) conditions.push(eq(networks.networkType, networkType));
    const rows = await this.db
      .select({ network: networks })
      .from(accountNetworks)
      .innerJoin(networks, eq(networks.id, accountNetworks.networkId))
      .where(and(...conditions))
      .orderBy(asc(networks.sortOrder), asc(networks.name));
    return rows.map((row) => row.network);
  }

  /** The application, only within the account; `forUpdate` locks it until the transaction ends. */
  async findApplication(accountId: string, id: string, options: { forUpdate?: boolean } = {}) {
    const query = this.db
      .select()
      .from(applications)
      .where(and(eq(applications.accountId, accountId), eq(applications.id, id)));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  }

  async insertApplication(values: NewApplication): Promise<ApplicationRow> {
    const [row] = await this.db.insert(applications).values(values).returning();
    return row!;
  }

  async updateApplication(
    id: string,
    changes: Pick<NewApplication, 'name' | 'nameKey' | 'callbackUrl' | 'testnetSigning'>,
  ): Promise<void> {
    await this.db
      .update(applications)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(applications.id, id));
  }

  /** Sets (or, with null, removes) the application's monthly cap (the usage API's PUT /usage/caps/{id}). */
  async setMonthlyCap(applicationId: string, capMicro: number | null): Promise<void> {
    await this.db
      .update(applications)
      .set({ monthlyCapMicro: capMicro, updatedAt: new Date() })
      .where(eq(applications.id, applicationId));
  }

  async deleteApplication(id: string): Promise<void> {
    await this.db.delete(applications).where(eq(applications.id, id));
  }

  async setNetworks(applicationId: string, networkIds: string[]): Promise<void> {
    await this.db.delete(applicationNetworks).where(eq(applicationNetworks.applicationId, applicationId));
    if (networkIds.length) {
      await this.db.insert(applicationNetworks).values(networkIds.map((networkId) => ({ applicationId, networkId })));
    }
  }

  async insertSecret(values: { applicationId: string; secretHash: string; hint: string }): Promise<SecretRow> {
    const [row] = await this.db.insert(applicationSecrets).values(values).returning();
    return row!;
  }

  /**
   * Ends the secrets still in use: with a grace period they expire at `expiresAt` (an earlier
   * expiry already set is kept); without one they are revoked now.
   */
  async retireSecrets(applicationId: string, expiresAt: Date | null, now: Date): Promise<void> {
    const live = and(
      eq(applicationSecrets.applicationId, applicationId),
      isNull(applicationSecrets.revokedAt),
      or(isNull(applicationSecrets.expiresAt), sql`${applicationSecrets.expiresAt} > ${now}`),
    );
    if (expiresAt) {
      await this.db
        .update(applicationSecrets)
        .set({ expiresAt: sql`least(coalesce(${applicationSecrets.expiresAt}, ${expiresAt}), ${expiresAt})` })
        .where(live);
    } else {
      await this.db.update(applicationSecrets).set({ revokedAt: now }).where(live);
    }
  }

  async revokeSecret(applicationId: string, secretId: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(applicationSecrets)
      .set({ revokedAt: now })
      .where(
        and(
          eq(applicationSecrets.applicationId, applicationId),
          eq(applicationSecrets.id, secretId),
          isNull(applicationSecrets.revokedAt),
        ),
      )
      .returning({ id: applicationSecrets.id });
    return rows.length > 0;
  }

  async findSecret(applicationId: string, secretId: string): Promise<SecretRow | null> {
    const [row] = await this.db
      .select()
      .from(applicationSecrets)
      .where(and(eq(applicationSecrets.applicationId, applicationId), eq(applicationSecrets.id, secretId)));
    return row ?? null;
  }

  /** One page of the account's applications, newest first, with the filter's total. */
  async page(filter: ApplicationFilter, offset: number, limit: number) {
    const conditions: SQL[] = [eq(applications.accountId, filter.accountId)];
    if (filter.search) conditions.push(ilike(applications.name, likePattern(filter.search)));
    if (filter.applicationType) conditions.push(eq(applications.applicationType, filter.applicationType));
    if (filter.networkId) {
      conditions.push(
        inArray(
          applications.id,
          this.db
            .select({ id: applicationNetworks.applicationId })
            .from(applicationNetworks)
            .where(eq(applicationNetworks.networkId, filter.networkId)),
        ),
      );
    }
    const where = and(...conditions);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(applications)
        .where(where)
        .orderBy(desc(applications.createdAt), desc(applications.id))
        .offset(offset)
        .limit(limit),
      this.db.select({ n: count() }).from(applications).where(where),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async allApplications(accountId: string): Promise<ApplicationRow[]> {
    return this.db
      .select()
      .from(applications)
      .where(eq(applications.accountId, accountId))
      .orderBy(asc(applications.name));
  }

  /** The networks of each application, by application id. */
  async networksOf(applicationIds: string[]): Promise<Map<string, NetworkRow[]>> {
    const result = new Map<string, NetworkRow[]>(applicationIds.map((id) => [id, []]));
    if (!applicationIds.length) return result;
    const rows = await this.db
      .select({ applicationId: applicationNetworks.applicationId, network: networks })
      .from(applicationNetworks)
      .innerJoin(networks, eq(networks.id, applicationNetworks.networkId))
      .where(inArray(applicationNetworks.applicationId, applicationIds))
      .orderBy(asc(networks.sortOrder), asc(networks.name));
    for (const row of rows) result.get(row.applicationId)?.push(row.network);
    return result;
  }

  /** The secrets of each application, newest first. */
  async secretsOf(applicationIds: string[]): Promise<Map<string, SecretRow[]>> {
    const result = new Map<string, SecretRow[]>(applicationIds.map((id) => [id, []]));
    if (!applicationIds.length) return result;
    const rows = await this.db
      .select()
      .from(applicationSecrets)
      .where(inArray(applicationSecrets.applicationId, applicationIds))
      .orderBy(desc(applicationSecrets.createdAt), desc(applicationSecrets.id));
    for (const row of rows) result.get(row.applicationId)?.push(row);
    return result;
  }

  /**
   * Daily request counts of one application between two UTC days (inclusive), per network: the
   * gateway's hourly counters (every method) summed per UTC day.
   */
  async usage(applicationId: string, fromDay: string, toDay: string) {
    const day = sql<string>`to_char(${gatewayUsageHourly.hour} at time zone 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .select({
        day,
        networkId: gatewayUsageHourly.networkId,
        name: networks.name,
        requests: sql<string>`sum(${gatewayUsageHourly.calls})`,
      })
      .from(gatewayUsageHourly)
      .innerJoin(networks, eq(networks.id, gatewayUsageHourly.networkId))
      .where(
        and(
          eq(gatewayUsageHourly.applicationId, applicationId),
          gte(gatewayUsageHourly.hour, new Date(`${fromDay}T00:00:00.000Z`)),
          lt(gatewayUsageHourly.hour, new Date(Date.parse(`${toDay}T00:00:00.000Z`) + 86_400_000)),
        ),
      )
      .groupBy(day, gatewayUsageHourly.networkId, networks.name);
    return rows.map((row) => ({ ...row, requests: Number(row.requests) }));
  }
}
