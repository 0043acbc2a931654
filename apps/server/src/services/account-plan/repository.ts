import { eq } from 'drizzle-orm';
import { accounts, type Database } from '@connect/db';
import { LedgerRepository } from '../../repositories/ledger.ts';

export type AccountPlanRow = {
  planName: string;
  planStatus: (typeof accounts.$inferSelect)['planStatus'];
  /** The credits the account may still spend (the ledger's available CREDIT). */
  credits: number;
  planRenewsAt: Date | null;
};

/** The only code of the account-plan service that touches its tables. */
export class AccountPlanRepository {
  constructor(private readonly db: Database) {}

  /** The plan columns of one account with its credits, or null when the account does not exist. */
  async findPlan(accountId: string): Promise<AccountPlanRow | null> {
    const [[row], credits] = await Promise.all([
      this.db
        .select({ planName: accounts.planName, planStatus: accounts.planStatus, planRenewsAt: accounts.planRenewsAt })
        .from(accounts)
        .where(eq(accounts.id, accountId)),
      new LedgerRepository(this.db).balance(accountId, 'CREDIT'),
    ]);
    return row ? { ...row, credits: Number(credits.available) } : null;
  }
}
