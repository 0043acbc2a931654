import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accountPlans, ratePlans, type Database } from '@connect/db';
import { termsOf } from '../src/repositories/plan-terms.ts';

/**
 * Test set-up of an account's plan, straight on `account_plans` (the lifecycle's transitions have
 * their own tests in services/account-plan). What an account may have is read from the plan by
 * every check (services/entitlements), so a test that needs other allowances puts the account on
 * another plan, or on a plan of its own (setAllowances), or sets an override (Entitlements). Both
 * give the account the plan's terms as it is now (what an account bought, issue 33 §3).
 */

export type AccountPlanChanges = Partial<Omit<typeof accountPlans.$inferInsert, 'accountId' | 'ratePlanId'>>;

/** The allowance columns of a plan (what entitlements answers, with no override). */
export type Allowances = Pick<
  typeof ratePlans.$inferSelect,
  'applications' | 'tokens' | 'bridges' | 'blockchains' | 'mainnets' | 'testnets' | 'rateLimit'
>;

/**
 * Puts the account on the seeded plan `code` (e.g. 'annual-standard', 'trial'), ACTIVE unless
 * `changes` say otherwise (e.g. `{ status: 'INACTIVE', statusReason: 'TRIAL_ENDED' }`).
 */
export async function putOnPlan(
  db: Database,
  accountId: string,
  code: string,
  changes: AccountPlanChanges = {},
): Promise<void> {
  const [plan] = await db.select().from(ratePlans).where(eq(ratePlans.code, code));
  if (!plan) throw new Error(`no rate plan with code ${code}`);
  const values = {
    ratePlanId: plan.id,
    terms: termsOf(plan),
    status: 'ACTIVE' as const,
    statusReason: code === 'trial' ? ('TRIAL' as const) : null,
    statusBeforePending: null,
    updatedAt: new Date(),
    ...changes,
  };
  await db
    .insert(accountPlans)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: accountPlans.accountId, set: values });
}

/**
 * Gives the account the allowances of its current plan changed by `allowances`: the plan row is
 * copied into a test plan of its own (never on sale), so no other account is affected.
 */
export async function setAllowances(db: Database, accountId: string, allowances: Partial<Allowances>): Promise<void> {
  const [current] = await db
    .select({ plan: ratePlans })
    .from(accountPlans)
    .innerJoin(ratePlans, eq(ratePlans.id, accountPlans.ratePlanId))
    .where(eq(accountPlans.accountId, accountId));
  if (!current) throw new Error(`account ${accountId} has no plan`);
  const { id: _id, createdAt: _createdAt, ...plan } = current.plan;
  const [copy] = await db
    .insert(ratePlans)
    .values({ ...plan, ...allowances, code: `test-${randomUUID()}`, isActive: false })
    .returning();
  await db
    .update(accountPlans)
    .set({ ratePlanId: copy!.id, terms: termsOf(copy!), updatedAt: new Date() })
    .where(eq(accountPlans.accountId, accountId));
}

/** Unlimited for tests that create many of something (the largest integer the columns hold). */
export const PLENTY = 2_147_483_647;
