import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { betaFeatures, betaInvitations, betaOptins, type Database } from '@connect/db';

export type BetaFeatureRow = typeof betaFeatures.$inferSelect;
export type BetaFeatureValues = Pick<BetaFeatureRow, 'name' | 'description' | 'featureKey' | 'access'>;
/** A catalogue entry with how many accounts opted in and how many staff invited. */
export type ManagedBetaFeatureRow = BetaFeatureRow & { optIns: number; invitations: number };
/** A beta feature the account may opt in to, with whether it did. */
export type VisibleBetaFeatureRow = BetaFeatureRow & { optedIn: boolean };

const OPT_INS = sql<number>`(select count(*)::int from beta_optins o where o.beta_feature_id = ${betaFeatures.id})`;
const INVITATIONS = sql<number>`(select count(*)::int from beta_invitations i where i.beta_feature_id = ${betaFeatures.id})`;

/** Whether the account may see and opt in to the feature: it is OPEN, or the account is invited. */
const mayHave = (accountId: string) =>
  sql`(${betaFeatures.access} = 'OPEN' or exists (select 1 from beta_invitations i
    where i.beta_feature_id = ${betaFeatures.id} and i.account_id = ${accountId}))`;

/**
 * Connect Beta's tables (issue 35 §1; schema/beta.ts), owned by the entitlements module: the
 * catalogue staff keep (`beta_features`), their invitations (`beta_invitations`) and the
 * accounts' opt-ins (`beta_optins`). What an opt-in switches on is read by the feature map
 * (repository.ts betaKeys). Built over the database or a transaction (`transaction`).
 */
export class BetaRepository {
  constructor(readonly db: Database) {}

  transaction<T>(work: (repo: BetaRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new BetaRepository(db), db);
    });
  }

  // ---- the catalogue (staff) ------------------------------------------------------------------

  async list(): Promise<ManagedBetaFeatureRow[]> {
    return this.db
      .select({ feature: betaFeatures, optIns: OPT_INS, invitations: INVITATIONS })
      .from(betaFeatures)
      .orderBy(asc(betaFeatures.name), asc(betaFeatures.id))
      .then((rows) => rows.map(({ feature, optIns, invitations }) => ({ ...feature, optIns, invitations })));
  }

  /** A catalogue entry; `forUpdate` locks it until the transaction ends (a change and its audit entry). */
  async find(id: string, options: { forUpdate?: boolean } = {}): Promise<ManagedBetaFeatureRow | null> {
    const query = this.db
      .select({ feature: betaFeatures, optIns: OPT_INS, invitations: INVITATIONS })
      .from(betaFeatures)
      .where(eq(betaFeatures.id, id));
    const [row] = options.forUpdate ? await query.for('update', { of: betaFeatures }) : await query;
    return row ? { ...row.feature, optIns: row.optIns, invitations: row.invitations } : null;
  }

  /** Whether another entry has this name (letter case aside). */
  async nameTaken(name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: betaFeatures.id })
      .from(betaFeatures)
      .where(
        and(sql`lower(${betaFeatures.name}) = lower(${name})`, exceptId ? ne(betaFeatures.id, exceptId) : undefined),
      )
      .limit(1);
    return Boolean(row);
  }

  async create(values: BetaFeatureValues): Promise<BetaFeatureRow> {
    const [row] = await this.db.insert(betaFeatures).values(values).returning();
    return row!;
  }

  async update(id: string, values: BetaFeatureValues): Promise<BetaFeatureRow | null> {
    const [row] = await this.db
      .update(betaFeatures)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(betaFeatures.id, id))
      .returning();
    return row ?? null;
  }

  /** Deletes the entry; its opt-ins and invitations go with it (the foreign keys cascade). */
  async remove(id: string): Promise<boolean> {
    const rows = await this.db.delete(betaFeatures).where(eq(betaFeatures.id, id)).returning({ id: betaFeatures.id });
    return rows.length > 0;
  }

  // ---- invitations (staff) --------------------------------------------------------------------

  /** Invites the account; false when it was invited already. A missing account fails on the foreign key. */
  async invite(betaFeatureId: string, accountId: string, invitedBy: string | null): Promise<boolean> {
    const rows = await this.db
      .insert(betaInvitations)
      .values({ betaFeatureId, accountId, invitedBy })
      .onConflictDoNothing()
      .returning({ accountId: betaInvitations.accountId });
    return rows.length > 0;
  }

  /** Invites every account that opted in (a feature that becomes INVITATION keeps its participants); answers them. */
  async inviteOptedIn(betaFeatureId: string, invitedBy: string | null): Promise<string[]> {
    const result = (await this.db.execute(sql`
      insert into beta_invitations (beta_feature_id, account_id, invited_by)
      select o.beta_feature_id, o.account_id, ${invitedBy}::uuid from beta_optins o where o.beta_feature_id = ${betaFeatureId}
      on conflict do nothing
      returning account_id as "accountId"`)) as unknown as { rows: { accountId: string }[] };
    return result.rows.map((row) => row.accountId);
  }

  async uninvite(betaFeatureId: string, accountId: string): Promise<boolean> {
    const rows = await this.db
      .delete(betaInvitations)
      .where(and(eq(betaInvitations.betaFeatureId, betaFeatureId), eq(betaInvitations.accountId, accountId)))
      .returning({ accountId: betaInvitations.accountId });
    return rows.length > 0;
  }

  // ---- the customer's side ----------------------------------------------------------------------

  /** The features the account may opt in to (OPEN, or invited), by name, with whether it opted in. */
  async visibleTo(accountId: string): Promise<VisibleBetaFeatureRow[]> {
    const rows = await this.db
      .select({ feature: betaFeatures, optedIn: sql<boolean>`(${betaOptins.accountId} is not null)` })
      .from(betaFeatures)
      .leftJoin(betaOptins, and(eq(betaOptins.betaFeatureId, betaFeatures.id), eq(betaOptins.accountId, accountId)))
      .where(mayHave(accountId))
      .orderBy(asc(betaFeatures.name), asc(betaFeatures.id));
    return rows.map(({ feature, optedIn }) => ({ ...feature, optedIn }));
  }

  /**
   * One feature as the account sees it; null when it may not (unknown, or INVITATION without an
   * invitation). It shares the feature's lock until the transaction ends, so a staff change of the
   * feature (which locks it for update) happens before or after an opt-in, never during it.
   */
  async visibleFeature(id: string, accountId: string): Promise<VisibleBetaFeatureRow | null> {
    const [row] = await this.db
      .select({ feature: betaFeatures, optedIn: sql<boolean>`(${betaOptins.accountId} is not null)` })
      .from(betaFeatures)
      .leftJoin(betaOptins, and(eq(betaOptins.betaFeatureId, betaFeatures.id), eq(betaOptins.accountId, accountId)))
      .where(and(eq(betaFeatures.id, id), mayHave(accountId)))
      .for('share', { of: betaFeatures });
    return row ? { ...row.feature, optedIn: row.optedIn } : null;
  }

  /** Opts the account in; false when it had already. */
  async optIn(betaFeatureId: string, accountId: string, optedInBy: string): Promise<boolean> {
    const rows = await this.db
      .insert(betaOptins)
      .values({ betaFeatureId, accountId, optedInBy })
      .onConflictDoNothing()
      .returning({ accountId: betaOptins.accountId });
    return rows.length > 0;
  }

  /** Opts the account out; false when it was not in. */
  async optOut(betaFeatureId: string, accountId: string): Promise<boolean> {
    const rows = await this.db
      .delete(betaOptins)
      .where(and(eq(betaOptins.betaFeatureId, betaFeatureId), eq(betaOptins.accountId, accountId)))
      .returning({ accountId: betaOptins.accountId });
    return rows.length > 0;
  }
}
