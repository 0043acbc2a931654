import { accountFeatures, type Database } from '@connect/db';
import { DEFAULT_ACCOUNT_FEATURES } from '../lib/portal-users.ts';

/**
 * The entitlements module's write of a new account's feature rows (`account_features`: the
 * counters and switches every account starts with), kept in repositories/ because the portal
 * user's creation (repositories/portal-users.ts, reached by sign-in and start-up) makes the
 * account, and src/repositories/ sits below the services. Inside the caller's transaction: the
 * rows commit with the account. A row that exists already stays as it is.
 */
export async function openAccountFeatures(db: Database, accountId: string): Promise<void> {
  await db
    .insert(accountFeatures)
    .values(DEFAULT_ACCOUNT_FEATURES.map((f) => ({ accountId, ...f })))
    .onConflictDoNothing();
}
