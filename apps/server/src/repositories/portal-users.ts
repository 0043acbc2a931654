import { eq, sql } from 'drizzle-orm';
import { accounts, users, type Database, type DbHandle } from '@connect/db';
import type { Role, UserStatus } from '@connect/shared';
import type { EventBus } from '../events/port.ts';
import type { PortalUser } from '../lib/portal-users.ts';
import { openAccountFeatures } from './account-features.ts';
import { AccountPlansRepository } from './account-plans.ts';
import { grantTrialCredits } from './trial-credits.ts';

/**
 * The portal user's reads and the writes that make or sign in one (lib/portal-users.ts says what a
 * portal user is). Each service's own changes to its users' rows stay in its repository.
 *
 * The read is plain SQL rather than Drizzle's builder: it runs on every authenticated request,
 * and on PGlite the builder's per-query mapping doubled its cost (bench/api.ts measures it).
 */
const SELECT_PORTAL_USER = `select u.id, u.account_id as "accountId", u.email, u.role, u.status,
  u.first_name as "firstName", u.last_name as "lastName", u.hear_about_us as "hearAboutUs",
  u.hear_about_us_description as "hearAboutUsDescription", u.promotional_emails as "promotionalEmails",
  u.mfa_setup as "mfaSetup", u.mfa_confirm as "mfaConfirm", u.kyc_status as "kycStatus",
  u.created_at as "createdAt", u.last_login_at as "lastLoginAt",
  a.organisation_name as "organisationName", a.organisation_location as "organisationLocation",
  a.industry, a.company_size as "companySize",
  (select tv.version from terms_versions tv
    order by tv.published_at desc, tv.version desc limit 1) as "latestTerms",
  (select tv.version from terms_acceptances ta join terms_versions tv on tv.version = ta.version
    where ta.user_id = u.id order by tv.published_at desc, tv.version desc limit 1) as "acceptedTermsVersion"
from users u join accounts a on a.id = u.account_id`;

/** Drivers differ on timestamps (Date or text); the portal user always carries Dates. */
function toPortalUser(row: Record<string, unknown> | undefined): PortalUser | null {
  if (!row) return null;
  return {
    ...(row as PortalUser),
    createdAt: new Date(row.createdAt as string | Date),
    lastLoginAt: row.lastLoginAt ? new Date(row.lastLoginAt as string | Date) : null,
  };
}

/** The portal user by id (the identity pool's `sub`), or null: the per-request read. */
export async function findPortalUser(dbh: Pick<DbHandle, 'query'>, id: string): Promise<PortalUser | null> {
  const { rows } = await dbh.query(`${SELECT_PORTAL_USER} where u.id = $1`, [id], { name: 'find_portal_user' });
  return toPortalUser(rows[0]);
}

/** The same read through Drizzle, so it runs inside a caller's transaction and sees its writes. */
export async function findPortalUserIn(db: Database, id: string): Promise<PortalUser | null> {
  // Both drivers (node-postgres and PGlite) answer execute() with an object carrying `rows`.
  const result = (await db.execute(sql`${sql.raw(SELECT_PORTAL_USER)} where u.id = ${id}`)) as unknown as {
    rows: Record<string, unknown>[];
  };
  return toPortalUser(result.rows[0]);
}

/**
 * Creates the account, the user, the account's default features, its trial plan and credits in one
 * transaction, and announces user.signed_up in it.
 * Concurrent first requests of the same new user race here: the loser's insert does nothing, and
 * announces nothing.
 */
export async function createPortalUser(
  db: Database,
  events: EventBus,
  input: {
    id: string;
    email: string;
    role?: Role;
    addedBy?: string;
    status?: UserStatus;
    /** An invited customer's names and organisation (issue 32 §3). */
    firstName?: string;
    lastName?: string;
    organisationName?: string;
  },
): Promise<PortalUser> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.id));
    if (existing) return;
    const [account] = await tx
      .insert(accounts)
      .values({ organisationName: input.organisationName ?? null })
      .returning({ id: accounts.id });
    const [created] = await tx
      .insert(users)
      .values({
        id: input.id,
        accountId: account!.id,
        email: input.email.toLowerCase(),
        role: input.role ?? 'INDIVIDUAL',
        status: input.status ?? 'ACTIVE',
        addedBy: input.addedBy ?? null,
        firstName: input.firstName ?? null,
        lastName: input.lastName ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email, role: users.role });
    await openAccountFeatures(tx, account!.id);
    // Only the account the user landed in: a racing loser's account stays empty.
    if (!created) return;
    await new AccountPlansRepository(tx, events).startTrial(account!.id);
    await grantTrialCredits(tx, account!.id);
    await events.emit(tx, 'user.signed_up', {
      userId: created.id,
      accountId: account!.id,
      email: created.email,
      role: created.role,
    });
  });
  const user = await findPortalUserIn(db, input.id);
  if (!user) throw new Error('portal user was not created');
  return user;
}

/**
 * Records a sign-in once per authentication (the access JWT's auth_time), not once per request.
 * Returns the user's last sign-in time after the call.
 */
export async function recordSignIn(db: Database, userId: string, authTime: Date, previous: Date | null) {
  if (previous && previous.getTime() >= authTime.getTime()) return previous;
  // The first sign-in of an invited user (PENDING) makes them ACTIVE (issue 32 §3).
  const firstSignIn = {
    firstLoginAt: authTime,
    status: sql<UserStatus>`case when status = 'PENDING' then 'ACTIVE' else status end`,
  };
  await db
    .update(users)
    .set({ lastLoginAt: authTime, ...(previous ? {} : firstSignIn) })
    .where(eq(users.id, userId));
  return authTime;
}

/** The identity pool's MFA state copied onto the portal user (the pool owns it; spec §4). */
export async function recordMfaState(db: Database, userId: string, state: { mfaSetup: boolean; mfaConfirm: boolean }) {
  await db.update(users).set(state).where(eq(users.id, userId));
}

/** Whether the installation has an administrator yet (the first start creates one). */
export async function hasAdministrator(db: Database): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'QUANT_ADMIN')).limit(1);
  return !!existing;
}
