import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '@connect/db';

/**
 * A read model (README.md): what staff creation of an application (application-manager's
 * management-service.ts) reads of connect's tables — the user a staff member names by email and
 * whether an account exists. Read only, each from a unique index.
 */
export class ApplicationManagementReadModel {
  constructor(private readonly db: Database) {}

  private async rows<R>(query: SQL): Promise<R[]> {
    return ((await this.db.execute(query)) as unknown as { rows: R[] }).rows;
  }

  /**
   * The id of the user with this address who is not REMOVED (ACTIVE, or PENDING: invited), or null.
   * Addresses are stored in lower case and unique among such users (users_email_live_idx).
   */
  async liveUserIdByEmail(email: string): Promise<string | null> {
    const [row] = await this.rows<{ id: string }>(
      sql`select id from users where email = ${email.toLowerCase()} and status <> 'REMOVED'`,
    );
    return row?.id ?? null;
  }

  async accountExists(accountId: string): Promise<boolean> {
    const [row] = await this.rows(sql`select 1 from accounts where id = ${accountId}`);
    return row !== undefined;
  }
}
