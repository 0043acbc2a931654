import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@connect/db';
import {
  PRIVATE_NETWORK_STATUSES,
  type TManagementPrivateNetwork,
  type TManagementPrivateNetworkSortField,
  type TPrivateNetworkStatus,
} from '@connect/shared';
import { likeEscaped, queryStaffList, type StaffListDescriptor, type StaffListRequest } from '../lib/staff-list.ts';

/**
 * The audit actions that are a review's decision: the latest one names who decided (the table has
 * no reviewer column; the audit log is where staff actions are kept).
 */
const DECISIONS = sql`('PRIVATE_NETWORK_APPROVED', 'PRIVATE_NETWORK_REJECTED')`;

/*
 * private_networks (integrate) with the account's organisation, status and owner from
 * account_directory (connect's projection) and the submitter from users (connect). The table is
 * small beside users and accounts (a network is submitted by hand and reviewed by a person), so
 * the joins and an unindexed search cost little; the list's order has an index of its own
 * (docs/decisions/staff-console.md, "Private-network review").
 */
const FROM = sql`private_networks p
  left join account_directory d on d.account_id = p.account_id
  left join users u on u.id = p.created_by`;

const COLUMNS = sql`p.id, p.name, p.chain_id::text as "chainId", p.status, p.environment, p.rpc_url as "url",
  p.eip1559, p.blocks_for_success as "numberOfBlocks", p.token_symbol as "tokenSymbol",
  p.token_decimals as "tokenDecimals", p.node_type as "nodeType", p.created_at::text as "submittedAt",
  p.reviewed_at::text as "reviewedAt", p.review_note as "reviewNote",
  p.removal_requested_at::text as "removalRequestedAt", p.removed_at::text as "removedAt",
  p.account_id as "accountId", d.organisation_name as "organisationName", d.status as "accountStatus",
  d.owner_user_id as "ownerUserId", d.owner_email as "ownerEmail", d.owner_name as "ownerName",
  u.id as "submitterId", u.email as "submitterEmail",
  nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as "submitterName",
  (select a.actor_email from audit_log a
    where a.record_type = 'private_network' and a.record_id = p.id::text and a.action in ${DECISIONS}
    order by a.occurred_at desc, a.id desc limit 1) as "reviewedBy"`;

const SORTS: StaffListDescriptor<TManagementPrivateNetworkSortField>['sorts'] = {
  submittedAt: { key: sql`p.created_at`, cast: 'timestamptz' },
  // Byte order of the lower-cased name: the same on PostgreSQL and PGlite.
  name: { key: sql`(lower(p.name) collate "C")`, cast: 'text' },
};

/** A term anywhere in the network's name, the organisation or an email (submitter, owner); digits also match the chain id. */
function searchCondition(term: string): SQL {
  const pattern = `%${likeEscaped(term)}%`;
  const conditions = [
    sql`lower(p.name) like ${pattern}`,
    sql`lower(d.organisation_name) like ${pattern}`,
    sql`lower(u.email) like ${pattern}`,
    sql`lower(d.owner_email) like ${pattern}`,
  ];
  if (/^\d{1,15}$/.test(term)) conditions.push(sql`p.chain_id = ${Number(term)}`);
  return sql`(${sql.join(conditions, sql` or `)})`;
}

const iso = (text: unknown) => (text === null || text === undefined ? null : new Date(text as string).toISOString());
const person = (id: unknown, email: unknown, name: unknown) =>
  id ? { userId: id as string, email: email as string, name: (name as string | null) ?? null } : null;

function toNetwork(row: Record<string, unknown>): TManagementPrivateNetwork {
  return {
    id: row.id as string,
    name: row.name as string,
    chainId: Number(row.chainId),
    status: row.status as TPrivateNetworkStatus,
    environment: row.environment as TManagementPrivateNetwork['environment'],
    url: row.url as string,
    eip1559: Boolean(row.eip1559),
    numberOfBlocks: Number(row.numberOfBlocks),
    tokenSymbol: row.tokenSymbol as string,
    tokenDecimals: Number(row.tokenDecimals),
    nodeType: row.nodeType as TManagementPrivateNetwork['nodeType'],
    submittedAt: iso(row.submittedAt)!,
    reviewedAt: iso(row.reviewedAt),
    reviewNote: (row.reviewNote as string | null) ?? null,
    reviewedBy: (row.reviewedBy as string | null) ?? null,
    removalRequestedAt: iso(row.removalRequestedAt),
    removedAt: iso(row.removedAt),
    account: {
      accountId: row.accountId as string,
      organisationName: (row.organisationName as string | null) ?? null,
      status: (row.accountStatus as TManagementPrivateNetwork['account']['status']) ?? null,
      owner: person(row.ownerUserId, row.ownerEmail, row.ownerName),
    },
    submittedBy: person(row.submitterId, row.submitterEmail, row.submitterName),
  };
}

/**
 * A read model (README.md): the staff's private-network review list and one network's details
 * (issue 33 §4), across integrate's private_networks and connect's account_directory, users and
 * the platform's audit log. Writes nothing.
 */
export class PrivateNetworkReviewsReadModel {
  constructor(private readonly db: Database) {}

  private async rows<R>(query: SQL): Promise<R[]> {
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }

  /** How many networks each status has: one small grouped read. */
  async statusCounts(): Promise<Record<TPrivateNetworkStatus, number>> {
    const rows = await this.rows<{ status: TPrivateNetworkStatus; count: number | string }>(
      sql`select status, count(*)::int as count from private_networks group by status`,
    );
    const counts = Object.fromEntries(PRIVATE_NETWORK_STATUSES.map((status) => [status, 0])) as Record<
      TPrivateNetworkStatus,
      number
    >;
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  /** One network as staff see it, or null. */
  async byId(id: string): Promise<TManagementPrivateNetwork | null> {
    const [row] = await this.rows<Record<string, unknown>>(sql`select ${COLUMNS} from ${FROM} where p.id = ${id}`);
    return row ? toNetwork(row) : null;
  }

  async list(
    filter: { status: TPrivateNetworkStatus; searchTerm?: string | undefined },
    request: Omit<StaffListRequest<TManagementPrivateNetworkSortField>, 'total'>,
  ) {
    const where: SQL[] = [sql`p.status = ${filter.status}`];
    if (filter.searchTerm) where.push(searchCondition(filter.searchTerm));
    const statusCounts = await this.statusCounts();
    const descriptor: StaffListDescriptor<TManagementPrivateNetworkSortField> = {
      from: FROM,
      id: sql`p.id`,
      columns: COLUMNS,
      sorts: SORTS,
      // The longest wait first: the review queue's order.
      defaultSort: { field: 'submittedAt', direction: 'asc' },
      where,
    };
    const result = await queryStaffList<TManagementPrivateNetworkSortField, Record<string, unknown>>(
      (query) => this.rows(query),
      descriptor,
      request,
      // Without a search the status's count is the exact total; with one the count is capped.
      filter.searchTerm ? undefined : statusCounts[filter.status],
    );
    return { ...result.paging, networks: result.rows.map(toNetwork), statusCounts };
  }
}
