import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import { accounts, type userDirectory, userStatusCounts, users, type Database } from '@connect/db';
import { USER_STATUSES, type Role, type TManagementUserSortField, type UserStatus } from '@connect/shared';
import {
  queryStaffList,
  staffListSearch,
  type StaffListDescriptor,
  type StaffListRequest,
} from '../../lib/staff-list.ts';

export type DirectoryRow = typeof userDirectory.$inferSelect;

/**
 * The sort keys of the user list (issue 32 §2) and the migration 0018 index each seeks on:
 * user_directory_<name>_idx over (status, key, user_id). The `*_key` columns are never null.
 */
const SORTS: StaffListDescriptor<TManagementUserSortField>['sorts'] = {
  firstName: { key: sql`d.first_name_key`, cast: 'text' },
  lastName: { key: sql`d.last_name_key`, cast: 'text' },
  email: { key: sql`d.email_key`, cast: 'text' },
  role: { key: sql`d.role`, cast: 'text' },
  organisationName: { key: sql`d.organisation_key`, cast: 'text' },
  statusChangedAt: { key: sql`d.status_changed_at`, cast: 'timestamptz' },
};

const COLUMNS = sql`d.user_id as "userId", d.account_id as "accountId", d.status, d.email,
  d.first_name as "firstName", d.last_name as "lastName", d.role, d.organisation_name as "organisationName",
  d.added_by as "addedBy", d.removed_by as "removedBy", d.kyc_status as "kycStatus", d.mfa_setup as "mfaSetup",
  d.mfa_confirm as "mfaConfirm", d.status_changed_at as "statusChangedAt", d.first_login_at as "firstLoginAt",
  d.last_login_at as "lastLoginAt"`;

/** The searched part of a row, as the list's `where`: see the decision "User search". */
export function userSearchCondition(term: string): SQL {
  return staffListSearch(term, {
    text: sql`d.search_text`,
    prefixKeys: [sql`d.first_name_key`, sql`d.last_name_key`, sql`d.email_key`, sql`d.organisation_key`],
  });
}

export type ListedUser = Omit<
  DirectoryRow,
  'emailKey' | 'firstNameKey' | 'lastNameKey' | 'organisationKey' | 'searchText'
>;

/** Drivers differ on timestamps (Date or text). */
const toDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string | Date));
function toListedUser(row: Record<string, unknown>): ListedUser {
  return {
    ...(row as ListedUser),
    statusChangedAt: toDate(row.statusChangedAt)!,
    firstLoginAt: toDate(row.firstLoginAt),
    lastLoginAt: toDate(row.lastLoginAt),
  };
}

/**
 * User management's reads and writes (issue 32 §3): the list from the user_directory projection
 * (kept by migration 0018's triggers in each change's transaction), the exact tab counts, and the
 * staff changes to users and accounts.
 */
export class UserManagementRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: UserManagementRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new UserManagementRepository(tx), tx));
  }

  private async rows<R>(query: SQL): Promise<R[]> {
    // Both drivers (node-postgres and PGlite) answer execute() with an object carrying `rows`.
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }

  async statusCounts(): Promise<Record<UserStatus, number>> {
    const rows = await this.db.select().from(userStatusCounts);
    const counts = Object.fromEntries(USER_STATUSES.map((status) => [status, 0])) as Record<UserStatus, number>;
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  async list(
    filter: { status: UserStatus; searchTerm?: string | undefined },
    request: Omit<StaffListRequest<TManagementUserSortField>, 'total'>,
    exactTotal: number | undefined,
  ) {
    const where = [sql`d.status = ${filter.status}`];
    if (filter.searchTerm) where.push(userSearchCondition(filter.searchTerm));
    const descriptor: StaffListDescriptor<TManagementUserSortField> = {
      from: sql`user_directory d`,
      id: sql`d.user_id`,
      columns: COLUMNS,
      sorts: SORTS,
      defaultSort: { field: 'statusChangedAt', direction: 'desc' },
      where,
    };
    const result = await queryStaffList<TManagementUserSortField, Record<string, unknown>>(
      (query) => this.rows(query),
      descriptor,
      request,
      filter.searchTerm ? undefined : exactTotal,
    );
    return { paging: result.paging, users: result.rows.map(toListedUser) };
  }

  /** One user as the list shows it; `forUpdate` locks the user's row until the transaction ends. */
  async find(userId: string, options: { forUpdate?: boolean } = {}): Promise<ListedUser | null> {
    if (options.forUpdate) await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [row] = await this.rows<Record<string, unknown>>(
      sql`select ${COLUMNS} from user_directory d where d.user_id = ${userId}`,
    );
    return row ? toListedUser(row) : null;
  }

  /** A user not REMOVED holds the address (the partial unique index users_email_live_idx). */
  async emailTaken(email: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email.toLowerCase()), ne(users.status, 'REMOVED')))
      .limit(1);
    return !!row;
  }

  /**
   * How many users with the role are ACTIVE or PENDING, other than `exceptUserId`. Locks the role's
   * rows, so two staff removing the last two administrators at once cannot both succeed.
   */
  async otherLiveWithRole(role: Role, exceptUserId: string): Promise<number> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, role), ne(users.status, 'REMOVED'), ne(users.id, exceptUserId)))
      .for('update');
    return rows.length;
  }

  async updateUser(
    userId: string,
    changes: Partial<Pick<typeof users.$inferInsert, 'firstName' | 'lastName' | 'role' | 'mfaSetup' | 'mfaConfirm'>>,
  ): Promise<void> {
    await this.db
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }

  async renameAccount(accountId: string, organisationName: string | null): Promise<void> {
    await this.db
      .update(accounts)
      .set({ organisationName, updatedAt: sql`now()` })
      .where(eq(accounts.id, accountId));
  }

  /**
   * Marks the user REMOVED by `removedBy`. When the account has no ACTIVE or PENDING user left the
   * account is REMOVED too: its applications' client credentials are then refused by the gateway
   * until a user is restored. Answers whether the account was closed.
   */
  async removeUser(userId: string, accountId: string, removedBy: string): Promise<{ accountClosed: boolean }> {
    await this.db
      .update(users)
      .set({ status: 'REMOVED', removedBy, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    const [live] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.accountId, accountId), ne(users.status, 'REMOVED')))
      .limit(1);
    if (live) return { accountClosed: false };
    await this.db
      .update(accounts)
      .set({ status: 'REMOVED', updatedAt: sql`now()` })
      .where(eq(accounts.id, accountId));
    return { accountClosed: true };
  }

  /**
   * Makes a REMOVED user ACTIVE again (`removedBy` cleared) and reopens their account when it was
   * closed. Answers whether the account was reopened.
   */
  async restoreUser(userId: string, accountId: string): Promise<{ accountReopened: boolean }> {
    await this.db
      .update(users)
      .set({ status: 'ACTIVE', removedBy: null, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    const reopened = await this.db
      .update(accounts)
      .set({ status: 'ACTIVE', updatedAt: sql`now()` })
      .where(and(eq(accounts.id, accountId), ne(accounts.status, 'ACTIVE')))
      .returning({ id: accounts.id });
    return { accountReopened: reopened.length > 0 };
  }

  /** The invited user's portal row in an existing account (a staff member joins the staff organisation). */
  async insertInvitedUser(input: {
    id: string;
    accountId: string;
    email: string;
    role: Role;
    firstName: string;
    lastName: string;
    addedBy: string;
  }): Promise<void> {
    await this.db.insert(users).values({ ...input, email: input.email.toLowerCase(), status: 'PENDING' });
  }

  /** Pending users invited before `before` (the 90-day purge), oldest first. */
  async pendingSince(before: Date, limit: number): Promise<{ id: string; email: string; accountId: string }[]> {
    return this.rows(
      sql`select id, email, account_id as "accountId" from users
        where status = 'PENDING' and status_changed_at < ${before.toISOString()}::timestamptz
        order by status_changed_at limit ${limit}`,
    );
  }
}
