import { and, asc, eq } from 'drizzle-orm';
import { users, type Database } from '@connect/db';

/** Someone an account's email goes to. */
export type AccountRecipient = { id: string; email: string };

/**
 * Whom to mail about something of an account (an order, a card charge): the named user while an
 * active member of the account, else every active member.
 */
export async function accountRecipients(
  db: Database,
  accountId: string,
  userId: string | null,
): Promise<AccountRecipient[]> {
  const members = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.status, 'ACTIVE')))
    .orderBy(asc(users.email));
  const named = userId ? members.filter((member) => member.id === userId) : [];
  return named.length ? named : members;
}
