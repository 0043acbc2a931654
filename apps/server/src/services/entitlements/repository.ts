import { and, eq, sql } from 'drizzle-orm';
import { accountFeatures, entitlementOverrides, type Database } from '@connect/db';
import type { PlanStatus } from '@connect/shared';
import {
  ALLOWANCE_COLUMNS,
  ALLOWANCE_KEYS,
  COUNTERS,
  type AllowanceKey,
  type CountedKey,
  type OverrideValue,
} from './keys.ts';
import { allowancesRelation, releaseCounterSql, takeCounterSql } from './repository-sql.ts';

/** What an account may have now: its plan's allowances with its overrides, and whether the plan is in service. */
export type Allowances = Record<AllowanceKey, number> & {
  accountId: string;
  /** The plan's status; null for an account without a plan row (none since migration 0009). */
  status: PlanStatus | null;
  inService: boolean;
};

export type FeatureRow = { feature: string; total: number | null; used: number };
export type OverrideRow = typeof entitlementOverrides.$inferSelect;

type AllowancesRow = Record<(typeof ALLOWANCE_COLUMNS)[AllowanceKey], number | null> & {
  account_id: string;
  status: PlanStatus | null;
  in_service: boolean | null;
};

const NO_ALLOWANCES = Object.fromEntries(ALLOWANCE_KEYS.map((key) => [key, 0])) as Record<AllowanceKey, number>;

function toAllowances(row: AllowancesRow): Allowances {
  const allowances = { ...NO_ALLOWANCES };
  for (const key of ALLOWANCE_KEYS) allowances[key] = Number(row[ALLOWANCE_COLUMNS[key]] ?? 0);
  return { ...allowances, accountId: row.account_id, status: row.status, inService: row.in_service ?? false };
}

/**
 * The only code of the entitlements module that touches the database: it reads the allowances
 * relation (repository-sql.ts), the account's counters and beta opt-ins (beta-repository.ts writes
 * those), and writes its own table, `entitlement_overrides`,
 * and the counters (`account_features.used`, through takeCounter/releaseCounter or the CTE a
 * guarded write embeds). Built over the database or a caller's transaction.
 */
export class EntitlementsRepository {
  constructor(private readonly db: Database) {}

  /**
   * The account's allowances now; null when there is no such account. `forUpdate` locks the
   * account's row until the transaction ends, so two changes checked against the allowances (two
   * network activations) run one after the other.
   */
  async allowances(accountId: string, options: { forUpdate?: boolean } = {}): Promise<Allowances | null> {
    const result = (await this.db.execute(sql`
      select a.id as account_id, al.status, al.in_service, ${sql.raw(
        ALLOWANCE_KEYS.map((key) => `al.${ALLOWANCE_COLUMNS[key]}`).join(', '),
      )}
      from accounts a left join ${allowancesRelation} al on al.account_id = a.id
      where a.id = ${accountId}
      ${options.forUpdate ? sql`for update of a` : sql``}`)) as unknown as { rows: AllowancesRow[] };
    const row = result.rows[0];
    return row ? toAllowances(row) : null;
  }

  /** The allowances of many accounts (those without a plan row are left out). */
  async allowancesOf(accountIds: string[]): Promise<Allowances[]> {
    if (!accountIds.length) return [];
    const result = (await this.db.execute(
      sql`select al.* from ${allowancesRelation} al where al.account_id in (${sql.join(
        accountIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    )) as unknown as { rows: AllowancesRow[] };
    return result.rows.map(toAllowances);
  }

  /** The account's feature rows (switchable features and usage counters), as stored. */
  async featureRows(accountId: string): Promise<FeatureRow[]> {
    return this.db
      .select({ feature: accountFeatures.feature, total: accountFeatures.total, used: accountFeatures.used })
      .from(accountFeatures)
      .where(eq(accountFeatures.accountId, accountId));
  }

  /** How many of a counted allowance the account has (its counter), or null without a counter row. */
  async used(accountId: string, key: CountedKey): Promise<number | null> {
    const [row] = await this.db
      .select({ used: accountFeatures.used })
      .from(accountFeatures)
      .where(and(eq(accountFeatures.accountId, accountId), eq(accountFeatures.feature, COUNTERS[key])));
    return row ? row.used : null;
  }

  /**
   * The feature keys the account's beta opt-ins switch on (Connect Beta, issue 35 §1): only while
   * the account may have the beta feature — it is OPEN, or the account is invited to it.
   */
  async betaKeys(accountId: string): Promise<string[]> {
    const result = (await this.db.execute(sql`
      select distinct f.feature_key as key from beta_optins o join beta_features f on f.id = o.beta_feature_id
      where o.account_id = ${accountId} and (f.access = 'OPEN' or exists (
        select 1 from beta_invitations i where i.beta_feature_id = f.id and i.account_id = o.account_id))`)) as unknown as {
      rows: { key: string }[];
    };
    return result.rows.map((row) => row.key);
  }

  async overrides(accountId: string): Promise<OverrideRow[]> {
    return this.db.select().from(entitlementOverrides).where(eq(entitlementOverrides.accountId, accountId));
  }

  /** Sets (or replaces) the account's override of `key`. */
  async setOverride(accountId: string, key: string, value: OverrideValue, setBy: string | null): Promise<void> {
    const values = {
      enabled: 'enabled' in value ? value.enabled : null,
      amount: 'amount' in value ? value.amount : null,
      setBy,
      setAt: new Date(),
    };
    await this.db
      .insert(entitlementOverrides)
      .values({ accountId, key, ...values })
      .onConflictDoUpdate({ target: [entitlementOverrides.accountId, entitlementOverrides.key], set: values });
  }

  /** Clears the account's override of `key`: the plan decides again. True when there was one. */
  async clearOverride(accountId: string, key: string): Promise<boolean> {
    const rows = await this.db
      .delete(entitlementOverrides)
      .where(and(eq(entitlementOverrides.accountId, accountId), eq(entitlementOverrides.key, key)))
      .returning({ key: entitlementOverrides.key });
    return rows.length > 0;
  }

  /** Takes one of a counted allowance in one statement (see takeCounterSql); true when taken. */
  async takeCounter(accountId: string, key: CountedKey): Promise<boolean> {
    const result = (await this.db.execute(takeCounterSql(key, sql`${accountId}::uuid`))) as unknown as {
      rows: unknown[];
    };
    return result.rows.length > 0;
  }

  async releaseCounter(accountId: string, key: CountedKey): Promise<void> {
    await this.db.execute(releaseCounterSql(key, sql`${accountId}::uuid`));
  }
}
