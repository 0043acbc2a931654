import { asc, count, desc, eq, sql } from 'drizzle-orm';
import { STAFF_ROLES } from '@connect/shared';
import { likeEscaped } from '../../lib/staff-list.ts';
import { findPortalUserIn } from '../../repositories/portal-users.ts';
import {
  accounts,
  contentUpdates,
  footerLinks,
  footerSections,
  termsAcceptances,
  termsVersions,
  users,
  type Database,
} from '@connect/db';
import { Entitlements } from '../entitlements/index.ts';

/** The user row joined with the organisation fields that live on the user's account. */
const userRecordColumns = {
  id: users.id,
  accountId: users.accountId,
  email: users.email,
  role: users.role,
  status: users.status,
  firstName: users.firstName,
  lastName: users.lastName,
  hearAboutUs: users.hearAboutUs,
  hearAboutUsDescription: users.hearAboutUsDescription,
  promotionalEmails: users.promotionalEmails,
  mfaSetup: users.mfaSetup,
  mfaConfirm: users.mfaConfirm,
  kycStatus: users.kycStatus,
  createdAt: users.createdAt,
  organisationName: accounts.organisationName,
  organisationLocation: accounts.organisationLocation,
  industry: accounts.industry,
  companySize: accounts.companySize,
};

export type TermsVersionRow = typeof termsVersions.$inferSelect;

export type UserChanges = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'firstName'
    | 'lastName'
    | 'hearAboutUs'
    | 'hearAboutUsDescription'
    | 'promotionalEmails'
    | 'mfaSetup'
    | 'mfaConfirm'
  >
>;
export type AccountChanges = Partial<
  Pick<typeof accounts.$inferInsert, 'organisationName' | 'organisationLocation' | 'industry' | 'companySize'>
>;

/** The newest terms first; the version breaks a tie so "latest" never depends on row order. */
const newestTermsFirst = [desc(termsVersions.publishedAt), desc(termsVersions.version)];

/**
 * The only code of the connect service that touches its tables. Built over the database or over
 * a transaction (see `transaction`), so the service can group writes without knowing Drizzle.
 */
export class ConnectRepository {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction with a repository bound to it; a throw rolls everything back. */
  transaction<T>(work: (repo: ConnectRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ConnectRepository(tx)));
  }

  /**
   * The user with the account's organisation fields. `forUpdate` locks both rows until the
   * transaction ends, so a rule checked on them (names locked after verification) still holds
   * when the write happens.
   */
  async findUser(userId: string, options: { forUpdate?: boolean } = {}) {
    const query = this.db
      .select(userRecordColumns)
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .where(eq(users.id, userId));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  }

  /** The user as the API shows it (see lib/portal-users.ts), read through this repository's connection. */
  async findUserView(userId: string) {
    return findPortalUserIn(this.db, userId);
  }

  async updateUser(userId: string, changes: UserChanges): Promise<void> {
    await this.db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, userId));
  }

  async updateAccount(accountId: string, changes: AccountChanges): Promise<void> {
    await this.db
      .update(accounts)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(accounts.id, accountId));
  }

  async latestTerms(): Promise<TermsVersionRow | null> {
    const [row] = await this.db
      .select()
      .from(termsVersions)
      .orderBy(...newestTermsFirst)
      .limit(1);
    return row ?? null;
  }

  /** Idempotent: accepting a version twice keeps the first acceptance and its time. */
  async acceptTerms(userId: string, version: string): Promise<void> {
    await this.db.insert(termsAcceptances).values({ userId, version }).onConflictDoNothing();
  }

  /** What the account may have (entitlements: the feature map), over this repository's connection. */
  entitlements(): Entitlements {
    return new Entitlements(this.db);
  }

  /** One page of updates, newest first; the id breaks ties so consecutive pages never overlap. */
  async contentUpdatesPage(offset: number, limit: number) {
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(contentUpdates)
        .orderBy(desc(contentUpdates.publishedAt), desc(contentUpdates.id))
        .offset(offset)
        .limit(limit),
      this.db.select({ n: count() }).from(contentUpdates),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async footerSections() {
    return this.db.select().from(footerSections).orderBy(asc(footerSections.sortOrder), asc(footerSections.title));
  }

  /** Every footer link by sort order; `sectionId` null marks a secondary (bottom) link. */
  async footerLinks() {
    return this.db.select().from(footerLinks).orderBy(asc(footerLinks.sortOrder), asc(footerLinks.title));
  }

  /** Registered organisation names for the autocomplete (the caller’s own included): names only, at most `limit`. */
  async searchOrganisations(term: string, limit: number): Promise<string[]> {
    const result = (await this.db.execute(organisationSearchQuery(term, limit))) as unknown as {
      rows: { name: string }[];
    };
    return result.rows.map((row) => row.name);
  }
}

/**
 * The organisation names a search finds (decision "Organisation search"), from account_directory
 * (migration 0019): 3+ characters through the trigram index on search_text, then kept only where
 * the organisation's own name holds them (search_text also holds owners' emails and names, which
 * must not find anything); 2 characters at the start of the name (organisation_key, a C-collated
 * btree). Live customer accounts only; one row per name whatever its case, the spelling most
 * accounts use, names that start with the term first, then the most used.
 */
function organisationSearchQuery(term: string, limit: number) {
  const escaped = likeEscaped(term);
  const matches =
    term.length >= 3
      ? sql`d.search_text like ${`%${escaped}%`} and d.organisation_key like ${`%${escaped}%`}`
      : sql`d.organisation_key like ${`${escaped}%`}`;
  const staffRoles = sql.join(
    STAFF_ROLES.map((role) => sql`${role}`),
    sql`, `,
  );
  return sql`select mode() within group (order by d.organisation_name) as name
    from account_directory d
    where ${matches} and d.status = 'ACTIVE' and d.organisation_name is not null
      and btrim(d.organisation_name) <> ''
      and not exists (select 1 from users u where u.account_id = d.account_id and u.role in (${staffRoles}))
    group by d.organisation_key
    order by (d.organisation_key like ${`${escaped}%`}) desc, count(*) desc, d.organisation_key
    limit ${limit}`;
}

export type UserRecord = NonNullable<Awaited<ReturnType<ConnectRepository['findUser']>>>;
