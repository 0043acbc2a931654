import { and, gt, gte, lte } from 'drizzle-orm';
import { sessionRevocations, type Database } from '@connect/db';

/** A revoked sign-in (`originJti`), or every token of `sub` issued before `revokedAt` (`originJti` null). */
export type SessionRevocation = {
  sub: string;
  originJti: string | null;
  revokedAt: Date;
  expiresAt: Date;
};

/** The only code that reads or writes `session_revocations` (see lib/session-revocations.ts). */
export class SessionRevocationRepository {
  constructor(private readonly db: Database) {}

  /** Records the revocations, and forgets rows whose last token has expired meanwhile. */
  async record(rows: SessionRevocation[], now: Date): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insert(sessionRevocations).values(rows);
    await this.db.delete(sessionRevocations).where(lte(sessionRevocations.expiresAt, now));
  }

  /** Revocations still in force at `now`, only those recorded at or after `since` when given. */
  live(now: Date, since?: Date): Promise<SessionRevocation[]> {
    return this.db
      .select({
        sub: sessionRevocations.sub,
        originJti: sessionRevocations.originJti,
        revokedAt: sessionRevocations.revokedAt,
        expiresAt: sessionRevocations.expiresAt,
      })
      .from(sessionRevocations)
      .where(
        and(
          gt(sessionRevocations.expiresAt, now),
          since === undefined ? undefined : gte(sessionRevocations.revokedAt, since),
        ),
      );
  }
}
