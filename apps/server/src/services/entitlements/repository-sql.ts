import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { accountFeatures } from '@connect/db';
import { termInForceSql } from '../../repositories/plan-terms.ts';
import { ALLOWANCE_COLUMNS, ALLOWANCE_KEYS, COUNTERS, type AllowanceKey, type CountedKey } from './keys.ts';

/*
 * The one definition of what an account may have now (issue 29 §4; it replaces migration 0009's
 * view `account_allowances`, dropped by 0016): its current plan's allowances as the account bought
 * them (`account_plans.terms`, issue 33 §3; the tier's when none are recorded), each overridden by the account's
 * `entitlement_overrides` row of that key while there is one, and whether the plan is in service
 * (ACTIVE, or PENDING with an active plan behind the order; otherwise nothing new may be created
 * and the gateway refuses calls).
 *
 * It is SQL, not a read followed by a check, so each guarded write takes its quota in the
 * statement that writes (see takeCounterSql): a concurrent request waits for the counter's row and
 * its condition is checked again on the committed version, so two requests cannot both take the
 * last one. The relation is plain joins and scalar lookups by primary key, which PostgreSQL
 * flattens into the caller's query: `where account_id = $1` reaches `account_plans`' key.
 */

const IN_SERVICE = `(ap.status = 'ACTIVE' or (ap.status = 'PENDING' and ap.status_before_pending = 'ACTIVE'))`;

/** An allowance's column: the override's number for this key, else the plan's as bought. */
function allowanceColumn(key: AllowanceKey): string {
  return (
    `coalesce((select o.amount from entitlement_overrides o where o.account_id = ap.account_id and o.key = '${key}'),` +
    ` ${termInForceSql(key)}) as ${ALLOWANCE_COLUMNS[key]}`
  );
}

/**
 * The relation of every account's allowances now, as SQL text for a FROM clause (the gateway's
 * prepared statements are text): columns `account_id`, `status`, `in_service` and one per
 * allowance, named as the `rate_plans` column (`applications`, …, `rate_limit`). An account
 * without a plan row (none since migration 0009) has no row: callers treat it as out of service.
 */
export const ALLOWANCES_RELATION = `(select ap.account_id, ap.status, ${IN_SERVICE} as in_service, ${ALLOWANCE_KEYS.map(
  allowanceColumn,
).join(', ')} from account_plans ap join rate_plans rp on rp.id = ap.rate_plan_id)`;

/** The same relation for Drizzle queries. */
export const allowancesRelation: SQL = sql.raw(ALLOWANCES_RELATION);

/**
 * The account's allowance of `key` while its plan is in service, as a scalar subquery: null (so
 * any comparison with it fails) when the plan is out of service or missing.
 */
export function allowanceWhileInService(key: AllowanceKey, accountId: SQLWrapper): SQL {
  return sql`(select al.${sql.raw(ALLOWANCE_COLUMNS[key])} from ${allowancesRelation} al where al.account_id = ${accountId} and al.in_service)`;
}

/** The condition of taking one of `key`: the account's counter row, below the allowance in service, and any `guards`. */
function takeCondition(key: CountedKey, accountId: SQLWrapper, guards: SQL[]): SQL {
  return and(
    eq(accountFeatures.accountId, accountId),
    eq(accountFeatures.feature, COUNTERS[key]),
    sql`${accountFeatures.used} < ${allowanceWhileInService(key, accountId)}`,
    ...guards,
  )!;
}

/**
 * The statement that takes one of a counted allowance: the account's counter moves up by one only
 * while it is below what the plan in service (or an override) allows now, and while every `guard`
 * holds; it returns `account_id` when taken and no row when refused. A guarded write uses it as a
 * CTE of its own statement (tokenise's insert reads the new row's account id from it, so a refusal
 * refuses the insert), or runs it alone in its transaction (takeCounter).
 */
export function takeCounterSql(key: CountedKey, accountId: SQLWrapper, guards: SQL[] = []): SQL {
  return sql`update ${accountFeatures} set ${sql.identifier(accountFeatures.used.name)} = ${accountFeatures.used} + 1
    where ${takeCondition(key, accountId, guards)}
    returning ${accountFeatures.accountId}`;
}

/** Gives one of a counted allowance back (the thing was deleted, or its creation failed); never below 0. */
export function releaseCounterSql(key: CountedKey, accountId: SQLWrapper): SQL {
  return sql`update ${accountFeatures} set ${sql.identifier(accountFeatures.used.name)} = greatest(${accountFeatures.used} - 1, 0)
    where ${and(eq(accountFeatures.accountId, accountId), eq(accountFeatures.feature, COUNTERS[key]))}`;
}
