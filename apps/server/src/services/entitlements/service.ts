import { isFeatureAvailable, type FeatureName, type TAvailableFeatures } from '@connect/shared';
import type { Database } from '@connect/db';
import { notFound } from '../../lib/errors.ts';
import {
  COUNTERS,
  isAllowanceKey,
  isSwitchKey,
  type CountedKey,
  type EntitlementKey,
  type OverrideValue,
} from './keys.ts';
import { EntitlementsRepository, type Allowances, type FeatureRow, type OverrideRow } from './repository.ts';

/** A counted allowance now: how many the plan (or an override) allows, how many the account has, how many are left. */
export type Quota = { total: number; used: number; left: number; inService: boolean };

/** An override as the staff console will list it. */
export type Override = { key: EntitlementKey; value: OverrideValue; setBy: string | null; setAt: Date };

/** The counters whose total is an allowance, by counter name. */
const COUNTER_ALLOWANCE = Object.fromEntries(
  Object.entries(COUNTERS).map(([key, counter]) => [counter, key as CountedKey]),
) as Record<string, CountedKey>;

/**
 * The feature map as spec §3 names it (`GET /available`): `a` is what the account uses; `t` is
 * what it may have now for the counters (the plan's allowance or its override, so an upgrade shows
 * at once), the row's own total otherwise. A beta opt-in (Connect Beta, issue 35 §1; `betaKeys`:
 * only the features the account may have) turns its key on (unlimited) while the account has
 * connectBeta. A switch override, applied last, turns a feature on (unlimited) or off (absent)
 * whatever the account's row or opt-ins say.
 */
function featureMap(
  rows: FeatureRow[],
  allowances: Allowances | null,
  overrides: OverrideRow[],
  betaKeys: string[],
): TAvailableFeatures {
  const map: TAvailableFeatures = {};
  for (const row of rows) {
    const counted = COUNTER_ALLOWANCE[row.feature];
    // No plan row at all (it cannot happen since migration 0009): nothing may be created.
    map[row.feature] = { t: counted ? (allowances?.[counted] ?? 0) : row.total, a: row.used };
  }
  // connectBeta is never a beta feature's key, so whether the account has it does not depend on opt-ins.
  if (betaKeys.length && isFeatureAvailable(applyOverrides({ ...map }, overrides), 'connectBeta')) {
    for (const key of betaKeys) map[key] = { t: null, a: map[key]?.a ?? 0 };
  }
  return applyOverrides(map, overrides);
}

/** The switch overrides applied to a feature map (in place): on is unlimited, off is absent. */
function applyOverrides(map: TAvailableFeatures, overrides: OverrideRow[]): TAvailableFeatures {
  for (const override of overrides) {
    if (!isSwitchKey(override.key) || override.enabled === null) continue;
    if (override.enabled) map[override.key] = { t: null, a: map[override.key]?.a ?? 0 };
    else delete map[override.key];
  }
  return map;
}

function toOverride(row: OverrideRow): Override {
  return {
    key: row.key as EntitlementKey,
    value: row.enabled !== null ? { enabled: row.enabled } : { amount: row.amount ?? 0 },
    setBy: row.setBy,
    setAt: row.setAt,
  };
}

/**
 * Entitlements (issue 29 §4): the one answer to "may this account do X, and how much is left?" —
 * the plan's allowances (networks, applications, tokens, bridges, the gateway's rate), the feature
 * map, and the account's overrides, which win over the plan until cleared. Built over the database
 * or a caller's transaction (a repository builds it over its own), so a check reads what the transaction sees. A write that
 * must not exceed a counted allowance takes it in its own statement with the SQL of repository-sql.ts
 * (takeCounterSql), or with `take` inside its transaction; never read-then-write.
 */
export class Entitlements {
  private readonly repo: EntitlementsRepository;

  constructor(db: Database) {
    this.repo = new EntitlementsRepository(db);
  }

  /** What the account may have now; null for no such account. `forUpdate` locks the account (see the repository). */
  allowances(accountId: string, options: { forUpdate?: boolean } = {}): Promise<Allowances | null> {
    return this.repo.allowances(accountId, options);
  }

  /** Each account's gateway rate (requests a second per network, shared by its applications); 0 without a plan row. */
  async rateLimits(accountIds: string[]): Promise<Map<string, number>> {
    const ids = [...new Set(accountIds)];
    const result = new Map<string, number>(ids.map((id) => [id, 0]));
    for (const row of await this.repo.allowancesOf(ids)) result.set(row.accountId, row.rateLimit);
    return result;
  }

  /** A counted allowance now; null when the account has no plan row or no counter row. */
  async quota(accountId: string, key: CountedKey): Promise<Quota | null> {
    const [allowances, used] = await Promise.all([this.repo.allowances(accountId), this.repo.used(accountId, key)]);
    if (!allowances?.status || used === null) return null;
    const total = allowances[key];
    return { total, used, left: Math.max(0, total - used), inService: allowances.inService };
  }

  /**
   * Takes one of a counted allowance (in one statement: see takeCounterSql). Refused: 'inactive'
   * when the plan is out of service, 'quota' when the allowance is used up (also when a downgrade
   * or an override left the account above it).
   */
  async take(accountId: string, key: CountedKey): Promise<'taken' | 'quota' | 'inactive'> {
    if (await this.repo.takeCounter(accountId, key)) return 'taken';
    // Refused: one more read, only on this path, to say why.
    const allowances = await this.repo.allowances(accountId);
    return allowances?.status && !allowances.inService ? 'inactive' : 'quota';
  }

  /** Gives one back: the thing it counted was deleted, or its creation did not happen. */
  release(accountId: string, key: CountedKey): Promise<void> {
    return this.repo.releaseCounter(accountId, key);
  }

  /** The account's feature map (`GET /available`, the menu, the footer, the route list). */
  async features(accountId: string): Promise<TAvailableFeatures> {
    const [rows, allowances, overrides, betaKeys] = await Promise.all([
      this.repo.featureRows(accountId),
      this.repo.allowances(accountId),
      this.repo.overrides(accountId),
      this.repo.betaKeys(accountId),
    ]);
    return featureMap(rows, allowances, overrides, betaKeys);
  }

  async hasFeature(accountId: string, feature: FeatureName): Promise<boolean> {
    return isFeatureAvailable(await this.features(accountId), feature);
  }

  /**
   * A feature the account does not have answers 404, as the SPA's routes do (spec §4): a 403
   * would sign the user out (spec §8), which is wrong for a plan that lacks a feature.
   */
  async requireFeature(accountId: string, feature: FeatureName): Promise<void> {
    if (!(await this.hasFeature(accountId, feature))) throw notFound('FEATURE_UNAVAILABLE');
  }

  // ---- overrides (the staff console of issue 33 sets them) --------------------------------

  async overrides(accountId: string): Promise<Override[]> {
    return (await this.repo.overrides(accountId)).map(toOverride);
  }

  /**
   * Overrides the plan for one account: a switch on or off (`{ enabled }`, keys of SWITCHES), or
   * an allowance's number (`{ amount }`, keys of ALLOWANCE_COLUMNS). It wins until cleared.
   */
  async setOverride(accountId: string, key: EntitlementKey, value: OverrideValue, setBy: string | null = null) {
    if ('enabled' in value ? !isSwitchKey(key) : !isAllowanceKey(key)) {
      throw new TypeError(`An override of ${key} cannot be ${JSON.stringify(value)}`);
    }
    if ('amount' in value && !(Number.isInteger(value.amount) && value.amount >= 0)) {
      throw new TypeError(`An allowance override is a whole number from 0, not ${value.amount}`);
    }
    await this.repo.setOverride(accountId, key, value, setBy);
  }

  /** Clears an override: the plan decides again. True when there was one. */
  clearOverride(accountId: string, key: EntitlementKey): Promise<boolean> {
    return this.repo.clearOverride(accountId, key);
  }
}
