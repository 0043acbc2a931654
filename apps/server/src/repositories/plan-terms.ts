import type { PlanTerms, ratePlans } from '@connect/db';

/*
 * What an account bought with its plan (issue 33 §3): the tier's allowances, gateway rate and
 * pay-as-you-go credit price as they were when the order was placed (`orders.terms`), in force on
 * `account_plans.terms` until the plan changes or renews. Staff edit a tier for new orders only.
 * `account_plans.terms` null (a row written before issue 33, or a test's) reads the tier.
 */

export type { PlanTerms };
export type TermKey = keyof PlanTerms;

/** Each term's column on `rate_plans`. */
export const TERM_COLUMNS = {
  applications: 'applications',
  tokens: 'tokens',
  bridges: 'bridges',
  blockchains: 'blockchains',
  mainnets: 'mainnets',
  testnets: 'testnets',
  rateLimit: 'rate_limit',
  creditPriceUsdCents: 'credit_price_usd_cents',
} as const satisfies Record<TermKey, string>;
export const TERM_KEYS = Object.keys(TERM_COLUMNS) as TermKey[];

/** A tier's terms now, from its `rate_plans` row. */
export function termsOf(plan: Pick<typeof ratePlans.$inferSelect, TermKey>): PlanTerms {
  return {
    applications: plan.applications,
    tokens: plan.tokens,
    bridges: plan.bridges,
    blockchains: plan.blockchains,
    mainnets: plan.mainnets,
    testnets: plan.testnets,
    rateLimit: plan.rateLimit,
    creditPriceUsdCents: plan.creditPriceUsdCents,
  };
}

/** Whether two terms say the same (jsonb orders their keys its own way, so not by their JSON text). */
export function sameTerms(a: PlanTerms | null, b: PlanTerms | null): boolean {
  if (a === null || b === null) return a === b;
  return TERM_KEYS.every((key) => (a[key] ?? null) === (b[key] ?? null));
}

/**
 * SQL text: the term `key` in force for the account plan `ap` (an `account_plans` row) on its tier
 * `rp` (its `rate_plans` row): the terms it bought, or the tier's when it has none recorded.
 */
export function termInForceSql(key: TermKey, ap = 'ap', rp = 'rp'): string {
  return `(case when ${ap}.terms is null then ${rp}.${TERM_COLUMNS[key]} else (${ap}.terms->>'${key}')::int end)`;
}

/** SQL text: the tier `rp`'s terms now as jsonb (what an account starting on it gets). */
export function tierTermsSql(rp = 'rp'): string {
  return `jsonb_build_object(${TERM_KEYS.map((key) => `'${key}', ${rp}.${TERM_COLUMNS[key]}`).join(', ')})`;
}
