import { and, asc, eq, max, ne, sql, type SQL } from 'drizzle-orm';
import { creditBundles, ratePlans, type Database } from '@connect/db';

export type TierRow = typeof ratePlans.$inferSelect;
export type TierBundle = typeof creditBundles.$inferSelect & { isOrdered: boolean };
/** Accounts whose plan (or next period's plan) it is; orders placed for it or for one of its bundles. */
export type TierUsage = { accounts: number; orders: number };
export type TierRecord = { plan: TierRow; bundles: TierBundle[]; usage: TierUsage };
/** What staff set: every column but the row's identity, code, place and retirement. */
export type TierValues = Omit<typeof ratePlans.$inferInsert, 'id' | 'code' | 'sortOrder' | 'isActive' | 'createdAt'>;
export type BundleValues = { id?: string | undefined; credits: number; priceUsdCents: number };

/** The trial is a row of the catalogue too, but never a tier: it is not sold (docs/decisions/plans-and-orders.md). */
const IS_TIER = ne(ratePlans.type, 'TRIAL');

/** `ids` as a set for `in (…)`: one parameter, the same text on PostgreSQL and PGlite. */
const idSet = (ids: readonly string[]): SQL =>
  sql`(select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;

const rowsOf = async <R>(db: Database, query: SQL): Promise<R[]> =>
  ((await db.execute(query)) as unknown as { rows: R[] }).rows;

/**
 * The subscription tiers of /subscription-management (issue 33 §3): the rows of the plan catalogue
 * (`rate_plans`, the trial aside) and their credit bundles, which account-plan owns. Built over the
 * database or a transaction (`transaction` gives one over a new one).
 */
export class TierRepository {
  constructor(readonly db: Database) {}

  transaction<T>(work: (repo: TierRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new TierRepository(db), db);
    });
  }

  /** Every tier, retired ones included, in the catalogue's order. */
  async list(): Promise<TierRecord[]> {
    const plans = await this.db
      .select()
      .from(ratePlans)
      .where(IS_TIER)
      .orderBy(asc(ratePlans.sortOrder), asc(ratePlans.createdAt), asc(ratePlans.id));
    return this.withDetails(plans);
  }

  /** One tier, or null; its row locked with `lock` until the transaction ends (call it inside one). */
  async find(id: string, { lock }: { lock?: 'update' | 'no key update' } = {}): Promise<TierRecord | null> {
    const query = this.db
      .select()
      .from(ratePlans)
      .where(and(eq(ratePlans.id, id), IS_TIER));
    const [plan] = lock ? await query.for(lock) : await query;
    if (!plan) return null;
    const [record] = await this.withDetails([plan]);
    return record!;
  }

  /**
   * The tiers' bundles and how much each is used. One grouped pass over account_plans and one over
   * orders, whatever the number of tiers (neither table has an index on these columns, so a
   * lookup per tier would be a scan per tier).
   */
  private async withDetails(plans: TierRow[]): Promise<TierRecord[]> {
    const ids = plans.map((plan) => plan.id);
    // One after another: inside a transaction they share one connection.
    const bundles = await this.db
      .select()
      .from(creditBundles)
      .where(sql`${creditBundles.ratePlanId} in ${idSet(ids)}`)
      .orderBy(asc(creditBundles.sortOrder), asc(creditBundles.credits));
    const accounts = await rowsOf<{ planId: string; n: number }>(
      this.db,
      sql`select plan_id as "planId", count(distinct account_id)::int as n from (
              select rate_plan_id as plan_id, account_id from account_plans
              union all
              select next_rate_plan_id, account_id from account_plans where next_rate_plan_id is not null
            ) used where plan_id in ${idSet(ids)} group by plan_id`,
    );
    const ordered = await rowsOf<{ planId: string | null; bundleId: string | null; n: number }>(
      this.db,
      sql`select coalesce(o.rate_plan_id, cb.rate_plan_id) as "planId", o.credit_bundle_id as "bundleId",
              count(*)::int as n
            from orders o left join credit_bundles cb on cb.id = o.credit_bundle_id
            where o.rate_plan_id in ${idSet(ids)} or cb.rate_plan_id in ${idSet(ids)}
            group by 1, 2`,
    );
    const orderedBundles = new Set(ordered.flatMap((row) => (row.bundleId ? [row.bundleId] : [])));
    return plans.map((plan) => ({
      plan,
      bundles: bundles
        .filter((bundle) => bundle.ratePlanId === plan.id)
        .map((bundle) => ({ ...bundle, isOrdered: orderedBundles.has(bundle.id) })),
      usage: {
        accounts: accounts.find((row) => row.planId === plan.id)?.n ?? 0,
        orders: ordered.filter((row) => row.planId === plan.id).reduce((sum, row) => sum + row.n, 0),
      },
    }));
  }

  /** Whether another tier (or the trial) already has this name, compared without case. */
  async nameTaken(name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: ratePlans.id })
      .from(ratePlans)
      .where(and(sql`lower(${ratePlans.name}) = lower(${name})`, exceptId ? ne(ratePlans.id, exceptId) : undefined))
      .limit(1);
    return Boolean(row);
  }

  /** Whether a row of the catalogue has this code. */
  async codeTaken(code: string): Promise<boolean> {
    const [row] = await this.db.select({ id: ratePlans.id }).from(ratePlans).where(eq(ratePlans.code, code)).limit(1);
    return Boolean(row);
  }

  /** A new tier on sale, last in the catalogue's order. */
  async insert(code: string, values: TierValues): Promise<TierRow> {
    const [last] = await this.db.select({ order: max(ratePlans.sortOrder) }).from(ratePlans);
    const [row] = await this.db
      .insert(ratePlans)
      .values({ ...values, code, sortOrder: (last?.order ?? 0) + 1, isActive: true })
      .returning();
    return row!;
  }

  async update(id: string, values: TierValues): Promise<void> {
    await this.db.update(ratePlans).set(values).where(eq(ratePlans.id, id));
  }

  /**
   * The tier's bundles become `bundles`, smallest first: those with an id are kept (repriced),
   * the others added, and the ones left out removed — the caller has checked that no order names
   * them. Kept rows first take places no bundle can have, so swapping two bundles' credits does
   * not trip the (plan, credits) unique index half way.
   */
  async replaceBundles(ratePlanId: string, current: readonly TierBundle[], bundles: readonly BundleValues[]) {
    const sorted = [...bundles].sort((a, b) => a.credits - b.credits);
    const kept = new Set(sorted.flatMap((bundle) => (bundle.id ? [bundle.id] : [])));
    for (const bundle of current.filter((row) => !kept.has(row.id))) {
      await this.db.delete(creditBundles).where(eq(creditBundles.id, bundle.id));
    }
    for (const [index, bundle] of sorted.entries()) {
      if (bundle.id) {
        await this.db
          .update(creditBundles)
          .set({ credits: -(index + 1) })
          .where(eq(creditBundles.id, bundle.id));
      }
    }
    for (const [sortOrder, bundle] of sorted.entries()) {
      const values = { credits: bundle.credits, priceUsdCents: bundle.priceUsdCents, sortOrder };
      if (bundle.id) await this.db.update(creditBundles).set(values).where(eq(creditBundles.id, bundle.id));
      else await this.db.insert(creditBundles).values({ ...values, ratePlanId });
    }
  }

  /** Puts the tiers in this order (1 first). */
  async reorder(ids: readonly string[]): Promise<void> {
    for (const [index, id] of ids.entries()) {
      await this.db
        .update(ratePlans)
        .set({ sortOrder: index + 1 })
        .where(eq(ratePlans.id, id));
    }
  }

  /** Locks every tier's row (the reorder's check that it lists them all holds until it commits). */
  async lockAll(): Promise<string[]> {
    const rows = await this.db
      .select({ id: ratePlans.id })
      .from(ratePlans)
      .where(IS_TIER)
      .orderBy(asc(ratePlans.id))
      .for('update');
    return rows.map((row) => row.id);
  }

  /** On sale (true) or retired (false). */
  async setOnSale(id: string, onSale: boolean): Promise<void> {
    await this.db.update(ratePlans).set({ isActive: onSale }).where(eq(ratePlans.id, id));
  }

  /** Deletes a tier and its bundles (the caller has checked nothing names them). */
  async delete(id: string): Promise<void> {
    await this.db.delete(ratePlans).where(eq(ratePlans.id, id));
  }
}
