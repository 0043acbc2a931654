import { and, eq, exists, notExists, sql } from 'drizzle-orm';
import { accounts, ledgerEntries, users, type Database } from '@connect/db';
import { TRIAL_CREDITS, TRIAL_CREDITS_REASON, trialCreditsReference } from '../lib/trial-credits.ts';
import { LedgerRepository } from './ledger.ts';

const grant = (db: Database, accountId: string) =>
  new LedgerRepository(db).grant(accountId, 'CREDIT', BigInt(TRIAL_CREDITS), {
    reason: TRIAL_CREDITS_REASON,
    reference: trialCreditsReference(accountId),
  });

/**
 * Grants the trial credits to a new account, inside the caller's transaction (createPortalUser).
 * The unique reference decides: whatever the races, the ledger moves once.
 */
export async function grantTrialCredits(db: Database, accountId: string): Promise<boolean> {
  return (await grant(db, accountId)).outcome === 'applied';
}

/**
 * Grants the trial credits to every account with a user that has none yet: the accounts created
 * before the grant moved to account creation and never opened Token Flow. Each grant is a ledger
 * movement of its own (a transaction each); the unique reference makes concurrent start-ups of
 * several nodes grant once. Returns how many accounts were granted (0 on every start after the first).
 */
export async function backfillTrialCredits(db: Database): Promise<number> {
  const prefix = trialCreditsReference('');
  const missing = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        exists(
          db
            .select({ one: sql`1` })
            .from(users)
            .where(eq(users.accountId, accounts.id)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(ledgerEntries)
            .where(eq(ledgerEntries.reference, sql`${prefix} || ${accounts.id}::text`)),
        ),
      ),
    );
  let granted = 0;
  for (const { id } of missing) if ((await grant(db, id)).outcome === 'applied') granted++;
  return granted;
}
