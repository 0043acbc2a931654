import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { kycApplicants, kycChecks, users, type Database } from '@connect/db';
import type { KycProviderName, KycStatus } from '@connect/shared';
import type { DomainEvents, EventType } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';

export type KycCheckRow = typeof kycChecks.$inferSelect;
export type KycApplicantRow = typeof kycApplicants.$inferSelect;

/** The only code that touches `kyc_applicants`, `kyc_checks` and `users.kyc_status`; it announces identity.verified too. */
export class KycRepository {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  transaction<T>(work: (repo: KycRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new KycRepository(tx as unknown as Database, this.events)));
  }

  /** Emits a domain event with this repository's database: inside `transaction`, it exists only if the change commits. */
  async announce<K extends EventType>(type: K, payload: DomainEvents[K]): Promise<void> {
    await this.events.emit(this.db, type, payload);
  }

  /**
   * The fields the rules need, read now (the request's user may be up to USER_CACHE_MS old).
   * `forUpdate` holds the row until the transaction ends, so the names compared with the document
   * are the names stored when the status becomes VERIFIED (PUT /user takes the same lock).
   */
  async findUser(userId: string, options: { forUpdate?: boolean } = {}) {
    const query = this.db
      .select({
        id: users.id,
        accountId: users.accountId,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        kycStatus: users.kycStatus,
      })
      .from(users)
      .where(eq(users.id, userId));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  }

  /**
   * Moves the user's status from one of `from` to `to` in one statement; false when the status
   * was something else by then (a concurrent request won), so two checks never start together.
   */
  async moveUserStatus(userId: string, from: readonly KycStatus[], to: KycStatus): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ kycStatus: to, updatedAt: new Date() })
      .where(and(eq(users.id, userId), inArray(users.kycStatus, [...from])))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async findApplicant(userId: string): Promise<KycApplicantRow | null> {
    const [row] = await this.db.select().from(kycApplicants).where(eq(kycApplicants.userId, userId));
    return row ?? null;
  }

  /** One applicant per user; a provider switch (sandbox → Onfido) replaces it. */
  /**
   * Stores the user's applicant at this provider, replacing one at another provider; when a
   * concurrent request stored one at this provider first, that one stays and is answered.
   */
  async saveApplicant(userId: string, provider: KycProviderName, applicantId: string): Promise<KycApplicantRow> {
    const [row] = await this.db
      .insert(kycApplicants)
      .values({ userId, provider, applicantId })
      .onConflictDoUpdate({
        target: kycApplicants.userId,
        set: { provider, applicantId, createdAt: new Date() },
        setWhere: sql`${kycApplicants.provider} <> ${provider}`,
      })
      .returning();
    return row ?? (await this.findApplicant(userId))!;
  }

  async insertCheck(values: {
    userId: string;
    provider: KycProviderName;
    checkId: string;
    documentFirstName: string | null;
    documentLastName: string | null;
    sandboxOutcome: string | null;
  }): Promise<KycCheckRow> {
    const [row] = await this.db.insert(kycChecks).values(values).returning();
    return row!;
  }

  /** The user's newest check: their status follows it. */
  async latestCheck(userId: string): Promise<KycCheckRow | null> {
    const [row] = await this.db
      .select()
      .from(kycChecks)
      .where(eq(kycChecks.userId, userId))
      .orderBy(desc(kycChecks.createdAt), desc(kycChecks.id))
      .limit(1);
    return row ?? null;
  }

  /** A check by its id (the settling job's). */
  async findCheck(id: string): Promise<KycCheckRow | null> {
    const [row] = await this.db.select().from(kycChecks).where(eq(kycChecks.id, id)).limit(1);
    return row ?? null;
  }

  async findCheckByProviderId(provider: KycProviderName, checkId: string): Promise<KycCheckRow | null> {
    const [row] = await this.db
      .select()
      .from(kycChecks)
      .where(and(eq(kycChecks.provider, provider), eq(kycChecks.checkId, checkId)));
    return row ?? null;
  }

  async pendingChecks(provider: KycProviderName): Promise<KycCheckRow[]> {
    return this.db
      .select()
      .from(kycChecks)
      .where(and(eq(kycChecks.provider, provider), eq(kycChecks.status, 'PENDING')));
  }

  /**
   * Records a check's result once: only a PENDING check changes, so a webhook, a timer and a
   * status read settling the same check together (or on several nodes) write it once.
   */
  async completeCheck(
    id: string,
    result: Pick<KycCheckRow, 'status' | 'reason' | 'documentFirstName' | 'documentLastName'>,
  ): Promise<KycCheckRow | null> {
    const [row] = await this.db
      .update(kycChecks)
      .set({ ...result, completedAt: new Date() })
      .where(and(eq(kycChecks.id, id), eq(kycChecks.status, 'PENDING')))
      .returning();
    return row ?? null;
  }

  async setUserStatus(userId: string, status: KycStatus): Promise<void> {
    await this.db.update(users).set({ kycStatus: status, updatedAt: new Date() }).where(eq(users.id, userId));
  }
}
