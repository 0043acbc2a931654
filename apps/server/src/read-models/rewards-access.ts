import { sql } from 'drizzle-orm';
import type { Database } from '@connect/db';

/**
 * A read model (README.md): whether an account's plan lets it take part in rewards (issue 34 §2;
 * spec §6) — a paid plan bought with QNT: account_plans.status ACTIVE, its rate plan not the
 * trial, and its last order paid in QNT (account_plans and rate_plans: account-plan). One
 * primary-key read.
 */
export class RewardsAccessReadModel {
  constructor(private readonly db: Database) {}

  async onQntPlan(accountId: string): Promise<boolean> {
    const result = (await this.db.execute(sql`
      select exists (
        select 1 from account_plans ap join rate_plans rp on rp.id = ap.rate_plan_id
        where ap.account_id = ${accountId} and ap.status = 'ACTIVE' and rp.type <> 'TRIAL'
          and ap.last_payment_method = 'QNT'
      ) as "onQntPlan"`)) as unknown as { rows: { onQntPlan: boolean }[] };
    return result.rows[0]?.onQntPlan === true;
  }
}
