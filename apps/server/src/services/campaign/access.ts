import type { Database } from '@connect/db';
import { problem } from '../../lib/errors.ts';
import { RewardsAccessReadModel } from '../../read-models/rewards-access.ts';
import type { Deps } from '../../types.ts';
import { Entitlements } from '../entitlements/index.ts';

/**
 * The access level of the customer's reward routes (spec: roles 'general', feature reward): any
 * signed-in portal user reaches the handler, which then calls assertRewardsAccess (the feature and
 * the QNT plan), so the refusal is the 409 the SPA can explain rather than a 403 that signs it out.
 */
export const REWARDS_ACCESS = { groups: ['general' as const] };

/**
 * Who may use rewards (issue 34 §2; spec §6): an account with the feature `reward` (entitlements:
 * its plan's switch or a staff override) AND a paid plan bought with QNT (ACTIVE, not the trial,
 * last paid in QNT). The customer routes are 'general' (any signed-in portal user) and check
 * this themselves, so a customer without it gets 409 REWARDS_NEED_QNT_PLAN — never a 403, which
 * signs the SPA out, nor the 404 of a missing feature, which the SPA shows as "no such page"
 * where it should say what is needed. `db`: a transaction to read in (default deps.db).
 */
export async function hasRewardsAccess(deps: Pick<Deps, 'db'>, accountId: string, db: Database = deps.db) {
  const [feature, plan] = await Promise.all([
    new Entitlements(db).hasFeature(accountId, 'reward'),
    new RewardsAccessReadModel(db).onQntPlan(accountId),
  ]);
  return feature && plan;
}

/** Throws 409 REWARDS_NEED_QNT_PLAN unless the account may use rewards (hasRewardsAccess). */
export async function assertRewardsAccess(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  db: Database = deps.db,
): Promise<void> {
  if (!(await hasRewardsAccess(deps, accountId, db))) throw problem('REWARDS_NEED_QNT_PLAN');
}
