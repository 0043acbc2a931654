import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@connect/db';
import {
  APPLICATION_LIST_STATUSES,
  type ApplicationType,
  type TApplicationListStatus,
  type TApplicationRole,
  type TManagementApplication,
  type TManagementApplicationSortField,
} from '@connect/shared';
import {
  queryStaffList,
  staffListSearch,
  type StaffListDescriptor,
  type StaffListRequest,
} from '../../lib/staff-list.ts';

/** application_list_counts' row for every network (a network's own rows carry its id). */
const EVERY_NETWORK = '00000000-0000-0000-0000-000000000000';

export type ApplicationListFilter = {
  statuses?: TApplicationListStatus[] | undefined;
  networkId?: string | undefined;
  searchTerm?: string | undefined;
};

/**
 * The sort keys of migration 0020's indexes, read from `t`: application_directory (d) for every
 * network, application_network_directory (n) — which copies them — for one network, so either
 * list is a seek on its own (…, key, application_id) btree.
 */
function sortsOf(t: SQL): StaffListDescriptor<TManagementApplicationSortField>['sorts'] {
  return {
    name: { key: sql`${t}.name_key`, cast: 'text' },
    ownerEmail: { key: sql`${t}.owner_key`, cast: 'text' },
    createdAt: { key: sql`${t}.created_at`, cast: 'timestamptz' },
  };
}

const COLUMNS = sql`d.application_id as "applicationId", d.name, d.client_id as "clientId",
  d.application_type as "applicationType", d.role_name as "roleName", d.status, d.account_id as "accountId",
  d.organisation_name as "organisationName", d.owner_user_id as "ownerUserId", d.owner_email as "ownerEmail",
  d.owner_name as "ownerName", d.created_at::text as "createdAt"`;

type NetworkOfRow = { id: string; name: string; networkType: ApplicationType };

function toApplication(row: Record<string, unknown>, networks: NetworkOfRow[]): TManagementApplication {
  return {
    applicationId: row.applicationId as string,
    name: row.name as string,
    clientId: row.clientId as string,
    applicationType: row.applicationType as ApplicationType,
    roleName: row.roleName as TApplicationRole,
    status: row.status as TApplicationListStatus,
    accountId: row.accountId as string,
    organisationName: (row.organisationName as string | null) ?? null,
    owner:
      row.ownerUserId && row.ownerEmail
        ? {
            userId: row.ownerUserId as string,
            email: row.ownerEmail as string,
            name: (row.ownerName as string | null) ?? null,
          }
        : null,
    networks,
    createdAt: new Date(row.createdAt as string).toISOString(),
  };
}

/**
 * Application management's list (issue 33 §2) from the application_directory projection, which
 * migration 0020's triggers keep in the transaction of each change to applications, their
 * networks, their owners and their accounts. Reads only.
 */
export class ApplicationManagementRepository {
  constructor(private readonly db: Database) {}

  private async rows<R>(query: SQL): Promise<R[]> {
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }

  /** The exact totals per status, of every network or of one (the counts the triggers keep). */
  async statusCounts(networkId?: string): Promise<Record<TApplicationListStatus, number>> {
    const counts = Object.fromEntries(APPLICATION_LIST_STATUSES.map((status) => [status, 0])) as Record<
      TApplicationListStatus,
      number
    >;
    // The nil UUID names every network's row: asked for as a network, it is no network's.
    if (networkId === EVERY_NETWORK) return counts;
    const rows = await this.rows<{ status: TApplicationListStatus; count: string | number }>(
      sql`select status, count from application_list_counts where network_id = ${networkId ?? EVERY_NETWORK}`,
    );
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts;
  }

  async list(filter: ApplicationListFilter, request: Omit<StaffListRequest<TManagementApplicationSortField>, 'total'>) {
    const t = filter.networkId ? sql.raw('n') : sql.raw('d');
    const where: SQL[] = [];
    if (filter.networkId) where.push(sql`n.network_id = ${filter.networkId}`);
    const statuses = filter.statuses?.length ? filter.statuses : undefined;
    if (statuses?.length === 1) where.push(sql`${t}.status = ${statuses[0]}`);
    else if (statuses) {
      where.push(
        sql`${t}.status in (${sql.join(
          statuses.map((s) => sql`${s}`),
          sql`, `,
        )})`,
      );
    }
    if (filter.searchTerm) {
      // 3+ characters anywhere in the name, client id or owner email; 1–2 at the start of the name or email.
      where.push(
        staffListSearch(filter.searchTerm, {
          text: sql`${t}.search_text`,
          prefixKeys: [sql`${t}.name_key`, sql`${t}.owner_key`],
        }),
      );
    }
    // Without a search the total is exact from the maintained counts; with one it is capped.
    let exactTotal: number | undefined;
    if (!filter.searchTerm) {
      const counts = await this.statusCounts(filter.networkId);
      const counted: readonly TApplicationListStatus[] = statuses ?? APPLICATION_LIST_STATUSES;
      exactTotal = counted.reduce<number>((sum, status) => sum + counts[status], 0);
    }
    const descriptor: StaffListDescriptor<TManagementApplicationSortField> = {
      // A left join on d's primary key: the count, which reads no column of d, leaves it out
      // altogether (PostgreSQL removes such a join); the page joins each of its rows.
      from: filter.networkId
        ? sql`application_network_directory n left join application_directory d on d.application_id = n.application_id`
        : sql`application_directory d`,
      id: sql`${t}.application_id`,
      columns: COLUMNS,
      sorts: sortsOf(t),
      defaultSort: { field: 'createdAt', direction: 'desc' },
      where,
    };
    const result = await queryStaffList<TManagementApplicationSortField, Record<string, unknown>>(
      (query) => this.rows(query),
      descriptor,
      request,
      exactTotal,
    );
    const networks = await this.networksOf(result.rows.map((row) => row.applicationId as string));
    return {
      ...result.paging,
      applicationList: result.rows.map((row) => toApplication(row, networks.get(row.applicationId as string) ?? [])),
    };
  }

  /** Every network of the catalogue, in its order (the network filter's choices). */
  async catalogue(): Promise<NetworkOfRow[]> {
    return this.rows<NetworkOfRow>(
      sql`select id, name, network_type as "networkType" from networks order by sort_order, name`,
    );
  }

  /** The networks of a page's applications, in the catalogue's order. */
  private async networksOf(applicationIds: string[]): Promise<Map<string, NetworkOfRow[]>> {
    const result = new Map<string, NetworkOfRow[]>(applicationIds.map((id) => [id, []]));
    if (!applicationIds.length) return result;
    const rows = await this.rows<NetworkOfRow & { applicationId: string }>(
      sql`select an.application_id as "applicationId", n.id, n.name, n.network_type as "networkType"
        from application_networks an join networks n on n.id = an.network_id
        where an.application_id in (${sql.join(
          applicationIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        order by n.sort_order, n.name`,
    );
    for (const { applicationId, ...network } of rows) result.get(applicationId)?.push(network);
    return result;
  }
}
