import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accountPlans, ratePlans, users } from '@connect/db';
import { signInAs, type TestContext } from '../../../test/helpers.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { addMonths, periodMonths, type PlanRef } from './transitions.ts';

/*
 * What the subscription and period tests share: a signed-in user with an account on the trial,
 * the catalogue's plans by code, and a plan paid for a period (through the lifecycle, as a paid
 * order would) — so a test starts from any state in a few lines.
 */

export type PlanUser = Awaited<ReturnType<typeof signInAs>> & { accountId: string };

/** A signed-in user whose account exists (its first request creates it, on the trial). */
export async function newPlanUser(t: TestContext): Promise<PlanUser> {
  const session = await signInAs(t);
  const res = await t.app.inject({ method: 'GET', url: '/api/account-plan/user-plan', headers: session.headers });
  expect(res.statusCode).toBe(200);
  const [row] = await t.db.db.select({ accountId: users.accountId }).from(users).where(eq(users.id, session.sub));
  return { ...session, accountId: row!.accountId };
}

/** A plan of the catalogue by its code ('trial', 'payg-standard', 'annual-advance', …). */
export async function planByCode(t: TestContext, code: string): Promise<PlanRef> {
  const [row] = await t.db.db
    .select({ id: ratePlans.id, type: ratePlans.type, tier: ratePlans.tier, name: ratePlans.name })
    .from(ratePlans)
    .where(eq(ratePlans.code, code));
  if (!row) throw new Error(`No plan ${code}`);
  return row;
}

export const lifecycleOf = (t: TestContext) =>
  new PlanLifecycle(t.db.db, t.app.events, { paygCreditLimit: t.app.deps.config.billing.paygCreditLimit });

/** Puts the account on `code`, paid from `start` for the plan's period (PLAN_PAID). */
export async function payPlan(t: TestContext, accountId: string, code: string, start: Date) {
  const plan = await planByCode(t, code);
  const periodEnd = addMonths(start, periodMonths(plan, null));
  return lifecycleOf(t).apply(accountId, {
    type: 'PLAN_PAID',
    orderId: crypto.randomUUID(),
    plan,
    periodStart: start,
    periodEnd,
    upfrontMonths: null,
  });
}

/** Moves the account's trial end (the trial started `trialDays` ago in these tests' own clock). */
export async function setTrialEnd(t: TestContext, accountId: string, trialEndsAt: Date) {
  await t.db.db.update(accountPlans).set({ trialEndsAt }).where(eq(accountPlans.accountId, accountId));
}
