import { and, asc, count, desc, eq, gt, gte, isNull, lt, or, sql } from 'drizzle-orm';
import {
  idpCodes,
  idpEvents,
  idpRefreshTokens,
  idpSessions,
  idpSigningKeys,
  idpUsers,
  type Database,
  type IdpCodePurpose,
} from '@connect/db';

export type IdpUser = typeof idpUsers.$inferSelect;
export type NewIdpUser = typeof idpUsers.$inferInsert;
export type IdpCode = typeof idpCodes.$inferSelect;
export type IdpSession = typeof idpSessions.$inferSelect;
export type IdpRefreshToken = typeof idpRefreshTokens.$inferSelect;
export type IdpSigningKey = typeof idpSigningKeys.$inferSelect;

/** Actions counted for the per-user limits. */
export type IdpAction =
  'RESEND_CODE' | 'CONFIRM_SIGN_UP' | 'FORGOT_PASSWORD' | 'CONFIRM_FORGOT_PASSWORD' | 'CHANGE_PASSWORD';

export type UserPatch = Partial<Omit<NewIdpUser, 'sub' | 'createdAt'>>;

/**
 * The only code that reads or writes the embedded pool's tables. Shared: the identity service
 * (the /idp wire protocol) and the embedded identity-admin adapter both work on the pool.
 */
export class IdentityPoolRepository {
  constructor(private readonly db: Database) {}

  // Users

  /** Every sign-in's first read (prepared once: see buildStatements). */
  async findUserByUsername(username: string): Promise<IdpUser | null> {
    const [row] = await statementsOf(this.db).userByUsername.execute({ username });
    return row ?? null;
  }

  async findUserBySub(sub: string): Promise<IdpUser | null> {
    const [row] = await this.db.select().from(idpUsers).where(eq(idpUsers.sub, sub));
    return row ?? null;
  }

  /** Inserts the user, or returns null when the username is taken (also under a race). */
  async insertUser(values: NewIdpUser): Promise<IdpUser | null> {
    const [row] = await this.db.insert(idpUsers).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  async updateUser(sub: string, patch: UserPatch, now: Date): Promise<void> {
    await this.db
      .update(idpUsers)
      .set({ ...patch, updatedAt: now })
      .where(eq(idpUsers.sub, sub));
  }

  async deleteUser(sub: string): Promise<boolean> {
    const rows = await this.db.delete(idpUsers).where(eq(idpUsers.sub, sub)).returning({ sub: idpUsers.sub });
    return rows.length > 0;
  }

  /** Users ordered by username, after `afterUsername` (keyset pagination). */
  listUsers(limit: number, afterUsername: string | undefined): Promise<IdpUser[]> {
    return this.db
      .select()
      .from(idpUsers)
      .where(afterUsername === undefined ? undefined : gt(idpUsers.username, afterUsername))
      .orderBy(asc(idpUsers.username))
      .limit(limit);
  }

  /**
   * Counts a failed sign-in in one statement, so concurrent failures all count. A failure after a
   * quiet period (no failure since `quietSince`) starts the count again.
   */
  async recordFailedSignIn(sub: string, now: Date, quietSince: Date): Promise<number> {
    const [row] = await this.db
      .update(idpUsers)
      .set({
        failedSignIns: sql`case when ${idpUsers.lastFailedSignInAt} is null or ${idpUsers.lastFailedSignInAt} < ${quietSince.toISOString()}::timestamptz then 1 else ${idpUsers.failedSignIns} + 1 end`,
        lastFailedSignInAt: now,
        updatedAt: now,
      })
      .where(eq(idpUsers.sub, sub))
      .returning({ failedSignIns: idpUsers.failedSignIns });
    return row?.failedSignIns ?? 0;
  }

  /**
   * Accepts a TOTP time step only if it is later than every step accepted before, atomically: two
   * requests racing with the same code cannot both win.
   */
  async claimTotpStep(sub: string, step: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(idpUsers)
      .set({ lastTotpStep: step, updatedAt: now })
      .where(and(eq(idpUsers.sub, sub), or(isNull(idpUsers.lastTotpStep), lt(idpUsers.lastTotpStep, step))))
      .returning({ sub: idpUsers.sub });
    return rows.length > 0;
  }

  // One-time codes

  /** Stores a new code and drops the user's earlier codes for the same purpose. */
  async replaceCode(sub: string, purpose: IdpCodePurpose, codeHash: string, expiresAt: Date, now: Date) {
    await this.db.transaction(async (tx) => {
      await tx.delete(idpCodes).where(and(eq(idpCodes.sub, sub), eq(idpCodes.purpose, purpose)));
      await tx.insert(idpCodes).values({ sub, purpose, codeHash, expiresAt, createdAt: now });
    });
  }

  async findLatestCode(sub: string, purpose: IdpCodePurpose): Promise<IdpCode | null> {
    const [row] = await this.db
      .select()
      .from(idpCodes)
      .where(and(eq(idpCodes.sub, sub), eq(idpCodes.purpose, purpose), isNull(idpCodes.usedAt)))
      .orderBy(desc(idpCodes.createdAt))
      .limit(1);
    return row ?? null;
  }

  /**
   * Marks a code used; false when another request used it first, or when wrong guesses reached
   * `attemptLimit` meanwhile (checked in the same statement, so a guess racing the right code
   * cannot slip past the limit).
   */
  async useCode(id: string, now: Date, attemptLimit: number): Promise<boolean> {
    const rows = await this.db
      .update(idpCodes)
      .set({ usedAt: now })
      .where(and(eq(idpCodes.id, id), isNull(idpCodes.usedAt), lt(idpCodes.failedAttempts, attemptLimit)))
      .returning({ id: idpCodes.id });
    return rows.length > 0;
  }

  /**
   * Counts a wrong code entered against the code, in one statement (concurrent guesses all
   * count); answers the count, or null when the code was used or replaced meanwhile.
   */
  async countWrongCode(id: string): Promise<number | null> {
    const [row] = await this.db
      .update(idpCodes)
      .set({ failedAttempts: sql`${idpCodes.failedAttempts} + 1` })
      .where(and(eq(idpCodes.id, id), isNull(idpCodes.usedAt)))
      .returning({ failedAttempts: idpCodes.failedAttempts });
    return row?.failedAttempts ?? null;
  }

  // Counted actions

  /**
   * Records an action when the user has done fewer than `limit` of it since `since`, and forgets
   * their older records of it; answers whether it was recorded. One transaction holding the user's
   * row: requests sent together are counted one after the other, so a burst cannot pass the limit
   * (counted, then recorded in separate statements, a burst's counts had all run before its first record).
   */
  async takeEvent(sub: string, action: IdpAction, now: Date, since: Date, limit: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.select({ sub: idpUsers.sub }).from(idpUsers).where(eq(idpUsers.sub, sub)).for('update');
      const [row] = await tx
        .select({ n: count() })
        .from(idpEvents)
        .where(and(eq(idpEvents.sub, sub), eq(idpEvents.action, action), gte(idpEvents.at, since)));
      if ((row?.n ?? 0) >= limit) return false;
      await tx
        .delete(idpEvents)
        .where(and(eq(idpEvents.sub, sub), eq(idpEvents.action, action), lt(idpEvents.at, since)));
      await tx.insert(idpEvents).values({ sub, action, at: now });
      return true;
    });
  }

  // Challenge sessions

  async insertSession(input: { idHash: string; sub: string; challenge: string; expiresAt: Date; now: Date }) {
    // Sessions are short-lived; expired ones of this user are cleared as new ones are made.
    await this.db.delete(idpSessions).where(and(eq(idpSessions.sub, input.sub), lt(idpSessions.expiresAt, input.now)));
    await this.db.insert(idpSessions).values({
      id: input.idHash,
      sub: input.sub,
      challenge: input.challenge,
      expiresAt: input.expiresAt,
      createdAt: input.now,
    });
  }

  async findSession(idHash: string): Promise<IdpSession | null> {
    const [row] = await this.db.select().from(idpSessions).where(eq(idpSessions.id, idHash));
    return row ?? null;
  }

  /** Uses a session once; false when it was used (or expired) meanwhile. */
  async useSession(idHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(idpSessions)
      .set({ usedAt: now })
      .where(and(eq(idpSessions.id, idHash), isNull(idpSessions.usedAt), gt(idpSessions.expiresAt, now)))
      .returning({ id: idpSessions.id });
    return rows.length > 0;
  }

  // Refresh tokens

  /**
   * Stores a refresh token; the user's expired ones are removed by the same statement (reading
   * only those, through the index by user and expiry).
   */
  async insertRefreshToken(values: {
    tokenHash: string;
    sub: string;
    clientId: string;
    originJti: string;
    authTime: Date;
    expiresAt: Date;
    now: Date;
  }): Promise<void> {
    const { now, ...row } = values;
    await statementsOf(this.db).insertRefreshToken.execute({ ...row, createdAt: now, now: now.toISOString() });
  }

  async findRefreshToken(tokenHash: string): Promise<IdpRefreshToken | null> {
    const [row] = await this.db.select().from(idpRefreshTokens).where(eq(idpRefreshTokens.tokenHash, tokenHash));
    return row ?? null;
  }

  /**
   * Marks a live refresh token replaced by its successor, once: of two requests rotating the same
   * token only one gets the row back.
   */
  async replaceRefreshToken(id: string, now: Date): Promise<IdpRefreshToken | null> {
    const [row] = await this.db
      .update(idpRefreshTokens)
      .set({ replacedAt: now })
      .where(
        and(
          eq(idpRefreshTokens.id, id),
          isNull(idpRefreshTokens.revokedAt),
          isNull(idpRefreshTokens.replacedAt),
          gt(idpRefreshTokens.expiresAt, now),
        ),
      )
      .returning();
    return row ?? null;
  }

  /**
   * Revokes every refresh token of one sign-in (the original and all its rotations); false when
   * it was revoked already.
   */
  async revokeFamily(originJti: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(idpRefreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(idpRefreshTokens.originJti, originJti), isNull(idpRefreshTokens.revokedAt)))
      .returning({ id: idpRefreshTokens.id });
    return rows.length > 0;
  }

  /** Revokes every refresh token of the user; answers the sign-ins (origin_jti) that were still alive. */
  async revokeAllRefreshTokens(sub: string, now: Date): Promise<string[]> {
    const rows = await this.db
      .update(idpRefreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(idpRefreshTokens.sub, sub), isNull(idpRefreshTokens.revokedAt)))
      .returning({ originJti: idpRefreshTokens.originJti });
    return [...new Set(rows.map((row) => row.originJti))];
  }

  /** Whether the sign-in an access token came from has been revoked. */
  async isFamilyRevoked(originJti: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: idpRefreshTokens.id })
      .from(idpRefreshTokens)
      .where(and(eq(idpRefreshTokens.originJti, originJti), sql`${idpRefreshTokens.revokedAt} is not null`))
      .limit(1);
    return !!row;
  }

  // Signing keys

  /** The pool's active signing keys, newest first: the first signs, every one verifies. */
  activeSigningKeys(): Promise<IdpSigningKey[]> {
    return this.db
      .select()
      .from(idpSigningKeys)
      .where(eq(idpSigningKeys.active, true))
      .orderBy(desc(idpSigningKeys.createdAt));
  }

  /** Stores a new signing key; another node starting at the same time may store its own. */
  async insertSigningKey(values: Pick<IdpSigningKey, 'kid' | 'publicJwk' | 'privateJwkEncrypted'>): Promise<void> {
    await this.db.insert(idpSigningKeys).values(values).onConflictDoNothing();
  }
}

/*
 * The statements every sign-in runs (issue 30: a sign-in should cost little beyond its argon2id
 * check), built once per database rather than by Drizzle on each call, and the refresh token's
 * insert carrying the removal of the user's expired ones: one round trip to the embedded
 * database's thread, not two. A repository on a transaction builds its own (they are bound to it).
 */
function buildStatements(db: Database) {
  const placeholder = (name: string) => sql.placeholder(name);
  const pruned = db.$with('pruned', { one: sql<number>`one`.as('one') }).as(
    sql`delete from ${idpRefreshTokens} where ${idpRefreshTokens.sub} = ${placeholder('sub')}
      and ${idpRefreshTokens.expiresAt} < ${placeholder('now')}::timestamptz returning 1 as one`,
  );
  const columns = ['tokenHash', 'sub', 'clientId', 'originJti', 'authTime', 'expiresAt', 'createdAt'] as const;
  return {
    userByUsername: db
      .select()
      .from(idpUsers)
      .where(eq(idpUsers.username, placeholder('username')))
      .prepare('identity_user_by_username'),
    insertRefreshToken: db
      .with(pruned)
      .insert(idpRefreshTokens)
      .values(Object.fromEntries(columns.map((column) => [column, placeholder(column)])) as never)
      .prepare('identity_insert_refresh_token'),
  };
}
const statements = new WeakMap<Database, ReturnType<typeof buildStatements>>();
function statementsOf(db: Database) {
  let built = statements.get(db);
  if (!built) {
    built = buildStatements(db);
    statements.set(db, built);
  }
  return built;
}
