import { asc, eq } from 'drizzle-orm';
import { creditBundles, ratePlans, type Database } from '@connect/db';

export type RatePlanRow = typeof ratePlans.$inferSelect;
export type CreditBundleRow = typeof creditBundles.$inferSelect;

/** The only code of the account-plan service that touches its tables. */
export class AccountPlanRepository {
  constructor(private readonly db: Database) {}

  /** The plans on sale, in the catalogue's order, with the ids of those that sell credit bundles. */
  async activePlans(): Promise<{ plans: RatePlanRow[]; withBundles: Set<string> }> {
    const [plans, bundled] = await Promise.all([
      this.db.select().from(ratePlans).where(eq(ratePlans.isActive, true)).orderBy(asc(ratePlans.sortOrder)),
      this.db.selectDistinct({ ratePlanId: creditBundles.ratePlanId }).from(creditBundles),
    ]);
    return { plans, withBundles: new Set(bundled.map((row) => row.ratePlanId)) };
  }

  /** A plan on sale, or null. */
  async activePlan(id: string): Promise<RatePlanRow | null> {
    const [row] = await this.db.select().from(ratePlans).where(eq(ratePlans.id, id));
    return row?.isActive ? row : null;
  }

  /** A plan's credit bundles, smallest first. */
  creditBundles(ratePlanId: string): Promise<CreditBundleRow[]> {
    return this.db
      .select()
      .from(creditBundles)
      .where(eq(creditBundles.ratePlanId, ratePlanId))
      .orderBy(asc(creditBundles.sortOrder), asc(creditBundles.credits));
  }
}
