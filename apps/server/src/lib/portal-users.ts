import { eq, sql } from 'drizzle-orm';
import { accountFeatures, accounts, users, type Database } from '@connect/db';
import type { FeatureName, Role, UserStatus } from '@connect/shared';

/**
 * Features every new account starts with (spec §5, §6). Usage-limited features carry a total;
 * plans change these rows later. Decided in docs/decisions.md ("Default account features").
 */
export const DEFAULT_ACCOUNT_FEATURES: { feature: FeatureName; total: number | null }[] = [
  { feature: 'mynetworks:v2', total: null },
  { feature: 'privateNetwork', total: null },
  { feature: 'bridge', total: null },
  { feature: 'reward', total: null },
  { feature: 'connectBeta', total: null },
  { feature: 'applications:create', total: 3 },
  { feature: 'tokens:create', total: 5 },
  { feature: 'bridges:create', total: 2 },
];

/**
 * The signed-in portal user as every request sees it: the user row, the organisation fields of
 * the account, and the terms versions the terms guard needs. Loaded once per request by the auth
 * plugin, so a handler that needs the user (GET /user/{id}) costs no further query.
 */
const portalUserColumns = {
  id: users.id,
  accountId: users.accountId,
  email: users.email,
  role: users.role,
  status: users.status,
  firstName: users.firstName,
  lastName: users.lastName,
  hearAboutUs: users.hearAboutUs,
  hearAboutUsDescription: users.hearAboutUsDescription,
  promotionalEmails: users.promotionalEmails,
  mfaSetup: users.mfaSetup,
  mfaConfirm: users.mfaConfirm,
  kycStatus: users.kycStatus,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
  organisationName: accounts.organisationName,
  organisationLocation: accounts.organisationLocation,
  industry: accounts.industry,
  companySize: accounts.companySize,
  latestTerms: sql<string | null>`(select tv.version from terms_versions tv
    order by tv.published_at desc, tv.version desc limit 1)`,
  acceptedTermsVersion: sql<string | null>`(select tv.version from terms_acceptances ta
    join terms_versions tv on tv.version = ta.version where ta.user_id = ${users.id}
    order by tv.published_at desc, tv.version desc limit 1)`,
};

function selectPortalUser(db: Database) {
  return db.select(portalUserColumns).from(users).innerJoin(accounts, eq(accounts.id, users.accountId));
}

export type PortalUser = Awaited<ReturnType<typeof selectPortalUser>>[number];

// Every authenticated request runs this query: prepared once per database, not rebuilt each time.
const preparedFind = new WeakMap<Database, ReturnType<typeof prepareFind>>();
function prepareFind(db: Database) {
  return selectPortalUser(db)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('find_portal_user');
}

/** The portal user by id (the identity pool's `sub`), or null. */
export async function findPortalUser(db: Database, id: string) {
  let prepared = preparedFind.get(db);
  if (!prepared) {
    prepared = prepareFind(db);
    preparedFind.set(db, prepared);
  }
  const [row] = await prepared.execute({ id });
  return row ?? null;
}

/** The same read inside a transaction (a prepared statement belongs to the pool, not the transaction). */
export async function findPortalUserIn(tx: Database, id: string) {
  const [row] = await selectPortalUser(tx).where(eq(users.id, id));
  return row ?? null;
}

/**
 * Creates the account, the user and the account's default features in one transaction.
 * Concurrent first requests of the same new user race here: the loser's insert does nothing.
 */
export async function createPortalUser(
  db: Database,
  input: { id: string; email: string; role?: Role; addedBy?: string; status?: UserStatus },
): Promise<PortalUser> {
  await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.id));
    if (existing) return;
    const [account] = await tx.insert(accounts).values({}).returning({ id: accounts.id });
    await tx
      .insert(users)
      .values({
        id: input.id,
        accountId: account!.id,
        email: input.email.toLowerCase(),
        role: input.role ?? 'INDIVIDUAL',
        status: input.status ?? 'ACTIVE',
        addedBy: input.addedBy ?? null,
      })
      .onConflictDoNothing();
    await tx
      .insert(accountFeatures)
      .values(DEFAULT_ACCOUNT_FEATURES.map((f) => ({ accountId: account!.id, ...f })))
      .onConflictDoNothing();
  });
  const user = await findPortalUser(db, input.id);
  if (!user) throw new Error('portal user was not created');
  return user;
}

/** Records a sign-in once per authentication (the token's auth_time), not once per request. */
export async function recordSignIn(db: Database, userId: string, authTime: Date, previous: Date | null) {
  if (previous && previous.getTime() >= authTime.getTime()) return;
  await db
    .update(users)
    .set({ lastLoginAt: authTime, ...(previous ? {} : { firstLoginAt: authTime }) })
    .where(eq(users.id, userId));
}
