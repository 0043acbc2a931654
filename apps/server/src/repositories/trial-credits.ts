import { eq, sql } from 'drizzle-orm';
import { accounts, creditTransactions, type Database } from '@connect/db';
import { TRIAL_CREDITS, TRIAL_CREDITS_REASON, trialCreditsReference } from '../lib/trial-credits.ts';

/**
 * Grants the trial credits to a new account, inside the caller's transaction (createPortalUser).
 * The unique reference decides: whatever the races, the transaction row is written once, and the
 * balance moves only when it was.
 */
export async function grantTrialCredits(db: Database, accountId: string): Promise<boolean> {
  const [inserted] = await db
    .insert(creditTransactions)
    .values({
      accountId,
      amount: TRIAL_CREDITS,
      reason: TRIAL_CREDITS_REASON,
      reference: trialCreditsReference(accountId),
    })
    .onConflictDoNothing()
    .returning({ id: creditTransactions.id });
  if (!inserted) return false;
  await db
    .update(accounts)
    .set({ credits: sql`${accounts.credits} + ${TRIAL_CREDITS}` })
    .where(eq(accounts.id, accountId));
  return true;
}

/**
 * Grants the trial credits to every account with a user that has none yet: the accounts created
 * before the grant moved to account creation and never opened Token Flow. One statement, so it is
 * atomic; the unique reference makes concurrent start-ups of several nodes grant once. Returns how
 * many accounts were granted (0 on every start after the first).
 */
export async function backfillTrialCredits(db: Database): Promise<number> {
  const prefix = trialCreditsReference('');
  const result = (await db.execute(sql`
    with granted as (
      insert into credit_transactions (account_id, amount, reason, reference)
      select a.id, ${TRIAL_CREDITS}, ${TRIAL_CREDITS_REASON}, ${prefix} || a.id::text
      from accounts a
      where exists (select 1 from users u where u.account_id = a.id)
        and not exists (select 1 from credit_transactions ct where ct.reference = ${prefix} || a.id::text)
      on conflict (reference) do nothing
      returning account_id
    )
    update accounts set credits = accounts.credits + ${TRIAL_CREDITS}
    from granted where accounts.id = granted.account_id
    returning accounts.id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
