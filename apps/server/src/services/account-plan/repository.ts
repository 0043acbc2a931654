import { eq } from 'drizzle-orm';
import { accounts, type Database } from '@connect/db';

export type AccountPlanRow = {
  planName: string;
  planStatus: (typeof accounts.$inferSelect)['planStatus'];
  credits: number;
  planRenewsAt: Date | null;
};

/** The only code of the account-plan service that touches its tables. */
export class AccountPlanRepository {
  constructor(private readonly db: Database) {}

  /** The plan columns of one account, or null when the account does not exist. */
  async findPlan(accountId: string): Promise<AccountPlanRow | null> {
    const [row] = await this.db
      .select({
        planName: accounts.planName,
        planStatus: accounts.planStatus,
        credits: accounts.credits,
        planRenewsAt: accounts.planRenewsAt,
      })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    return row ?? null;
  }
}
