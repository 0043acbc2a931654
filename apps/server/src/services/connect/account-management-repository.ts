import { sql, type SQL } from 'drizzle-orm';
import { accountStatusCounts, type Database } from '@connect/db';
import {
  ACCOUNT_LIST_STATUSES,
  type TAccountListStatus,
  type TManagementAccount,
  type TManagementAccountSortField,
} from '@connect/shared';
import {
  queryStaffList,
  staffListSearch,
  type StaffListDescriptor,
  type StaffListRequest,
} from '../../lib/staff-list.ts';

/**
 * The sort keys of the account list (issue 33 §1) and migration 0019's indexes: each over
 * (key, account_id) for All statuses and (status, key, account_id) for a status filter.
 */
const SORTS: StaffListDescriptor<TManagementAccountSortField>['sorts'] = {
  organisationName: { key: sql`d.organisation_key`, cast: 'text' },
  currentPlan: { key: sql`d.plan_key`, cast: 'text' },
  createdAt: { key: sql`d.created_at`, cast: 'timestamptz' },
};

const COLUMNS = sql`d.account_id as "accountId", d.organisation_name as "organisationName", d.status,
  d.owner_user_id as "ownerUserId", d.owner_email as "ownerEmail", d.owner_name as "ownerName",
  d.current_plan as "currentPlan", d.plan_status as "planStatus", d.plan_expiry::text as "planExpiry",
  d.last_login_at::text as "lastLoginAt", d.created_at::text as "createdAt"`;

/** The account search (decision "The account directory"): 3+ characters anywhere, 1–2 the start of the organisation or plan. */
function accountSearchCondition(term: string): SQL {
  return staffListSearch(term, { text: sql`d.search_text`, prefixKeys: [sql`d.organisation_key`, sql`d.plan_key`] });
}

const iso = (text: unknown) => (text === null || text === undefined ? null : new Date(text as string).toISOString());

function toAccount(row: Record<string, unknown>): TManagementAccount {
  return {
    accountId: row.accountId as string,
    organisationName: (row.organisationName as string | null) ?? null,
    status: row.status as TAccountListStatus,
    accountOwner: row.ownerUserId
      ? {
          userId: row.ownerUserId as string,
          email: row.ownerEmail as string,
          name: (row.ownerName as string | null) ?? null,
        }
      : null,
    currentPlan: (row.currentPlan as string | null) ?? null,
    planStatus: (row.planStatus as TManagementAccount['planStatus']) ?? null,
    planExpiryDate: iso(row.planExpiry),
    lastLogin: iso(row.lastLoginAt),
    createdAt: iso(row.createdAt)!,
  };
}

/**
 * Account management's list (issue 33 §1) from the account_directory projection, which migration
 * 0019's triggers keep in the transaction of each change to accounts, users and plans.
 */
export class AccountManagementRepository {
  constructor(private readonly db: Database) {}

  private async rows<R>(query: SQL): Promise<R[]> {
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }

  async exists(accountId: string): Promise<boolean> {
    const [row] = await this.rows(sql`select 1 from account_directory where account_id = ${accountId}`);
    return row !== undefined;
  }

  async statusCounts(): Promise<Record<TAccountListStatus, number>> {
    const rows = await this.db.select().from(accountStatusCounts);
    const counts = Object.fromEntries(ACCOUNT_LIST_STATUSES.map((status) => [status, 0])) as Record<
      TAccountListStatus,
      number
    >;
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  async list(
    filter: { statuses?: TAccountListStatus[] | undefined; searchTerm?: string | undefined },
    request: Omit<StaffListRequest<TManagementAccountSortField>, 'total'>,
  ) {
    const where: SQL[] = [];
    const statuses = filter.statuses?.length ? filter.statuses : undefined;
    if (statuses?.length === 1) where.push(sql`d.status = ${statuses[0]}`);
    else if (statuses)
      where.push(
        sql`d.status in (${sql.join(
          statuses.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      );
    if (filter.searchTerm) where.push(accountSearchCondition(filter.searchTerm));
    // Without a search the total is exact from the maintained counts; with one it is capped.
    let exactTotal: number | undefined;
    if (!filter.searchTerm) {
      const counts = await this.statusCounts();
      const counted: readonly TAccountListStatus[] = statuses ?? ACCOUNT_LIST_STATUSES;
      exactTotal = counted.reduce<number>((sum, status) => sum + counts[status], 0);
    }
    const descriptor: StaffListDescriptor<TManagementAccountSortField> = {
      from: sql`account_directory d`,
      id: sql`d.account_id`,
      columns: COLUMNS,
      sorts: SORTS,
      defaultSort: { field: 'createdAt', direction: 'desc' },
      where,
    };
    const result = await queryStaffList<TManagementAccountSortField, Record<string, unknown>>(
      (query) => this.rows(query),
      descriptor,
      request,
      exactTotal,
    );
    return { ...result.paging, accountList: result.rows.map(toAccount) };
  }
}
