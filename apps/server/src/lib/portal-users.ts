import { eq } from 'drizzle-orm';
import { accountFeatures, accounts, users, type Database } from '@connect/db';
import type { FeatureName, Role, UserStatus } from '@connect/shared';

export type PortalUser = {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  status: UserStatus;
};

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

const portalUserColumns = {
  id: users.id,
  accountId: users.accountId,
  email: users.email,
  role: users.role,
  status: users.status,
  lastLoginAt: users.lastLoginAt,
};

export async function findPortalUser(db: Database, id: string) {
  const [row] = await db.select(portalUserColumns).from(users).where(eq(users.id, id));
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
