import { eq } from 'drizzle-orm';
import { idpUsers, type Database } from '@connect/db';
import type { IdentityAdmin, IdentityUser } from '../../adapters/identity-admin/port.ts';

type IdpUserRow = typeof idpUsers.$inferSelect;

export function toIdentityUser(row: IdpUserRow): IdentityUser {
  return {
    sub: row.sub,
    username: row.username,
    email: row.email,
    status: row.status,
    enabled: true,
    totpVerified: row.totpVerified,
    mfaPreferred: row.mfaEnabled && row.mfaPreferred,
    createdAt: row.createdAt,
  };
}

/** Administration of the embedded pool, straight on its tables. */
export class EmbeddedIdentityAdmin implements Partial<IdentityAdmin> {
  readonly mode = 'embedded' as const;
  constructor(private readonly db: Database) {}

  async getUser(username: string): Promise<IdentityUser | null> {
    const [row] = await this.db.select().from(idpUsers).where(eq(idpUsers.username, username.toLowerCase()));
    if (row) return toIdentityUser(row);
    // Access tokens carry the username; the sub works too, as with Cognito's AdminGetUser.
    if (/^[0-9a-f-]{36}$/i.test(username)) {
      const [bySub] = await this.db.select().from(idpUsers).where(eq(idpUsers.sub, username));
      return bySub ? toIdentityUser(bySub) : null;
    }
    return null;
  }
}
