import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@connect/db';
import type { TManagementOrder, TManagementOrderSortField, TOrderStatus } from '@connect/shared';
import { likeEscaped, queryStaffList, type StaffListDescriptor, type StaffListRequest } from '../lib/staff-list.ts';
import { ORDER_COLUMNS, ORDER_TABLES, text, toDetailOrder, type Row } from './account-detail.ts';

/**
 * A read model (README.md): the staff's orders screen (issue 33 §5) — every account's orders in
 * the shared staff list, newest first, by status (migration 0021's indexes on (created_at, id) and
 * (status, created_at, id)), with the account each belongs to from the account directory.
 * Searched by a payment reference as customers quote it (`CNX-…`, its start) or, from 3
 * characters, by the organisation, the owner's email or name.
 */
export class OrderManagementReadModel {
  constructor(private readonly db: Database) {}

  async list(
    filter: { status?: TOrderStatus | undefined; searchTerm?: string | undefined },
    request: Omit<StaffListRequest<TManagementOrderSortField>, 'total'>,
  ) {
    const where: SQL[] = [];
    if (filter.status) where.push(sql`o.status = ${filter.status}`);
    if (filter.searchTerm) {
      const reference = sql`o.reference like ${`${likeEscaped(filter.searchTerm).toUpperCase()}%`}`;
      where.push(
        filter.searchTerm.length >= 3
          ? sql`(${reference} or d.search_text like ${`%${likeEscaped(filter.searchTerm)}%`})`
          : reference,
      );
    }
    const descriptor: StaffListDescriptor<TManagementOrderSortField> = {
      from: sql`${ORDER_TABLES} join account_directory d on d.account_id = o.account_id`,
      id: sql`o.id`,
      columns: sql`${ORDER_COLUMNS}, o.account_id as "accountId", d.organisation_name as "organisationName",
        d.owner_email as "ownerEmail"`,
      sorts: { createdAt: { key: sql`o.created_at`, cast: 'timestamptz' } },
      defaultSort: { field: 'createdAt', direction: 'desc' },
      where,
    };
    const result = await queryStaffList<TManagementOrderSortField, Row>(
      (query) => this.rows(query),
      descriptor,
      request,
    );
    return { ...result.paging, orderList: result.rows.map(toOrder) };
  }

  private async rows<R>(query: SQL): Promise<R[]> {
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }
}

function toOrder(row: Row): TManagementOrder {
  return {
    ...toDetailOrder(row),
    accountId: String(row.accountId),
    organisationName: text(row.organisationName),
    ownerEmail: text(row.ownerEmail),
  };
}
