import type { TPlanInfo } from '@connect/shared';
import { notFound } from '../../lib/errors.ts';
import type { PortalUser } from '../../lib/portal-users.ts';
import type { AccountPlanRepository } from './repository.ts';

/** The rules of the account-plan service; plans, orders and subscriptions arrive with their issues. */
export class AccountPlanService {
  constructor(private readonly repo: AccountPlanRepository) {}

  /**
   * The plan info of the top bar and dashboard (spec §3 Plan info) for the caller's own account.
   * There is no account parameter: a user can only ever read the plan of the account they belong to.
   */
  async userPlan(caller: Pick<PortalUser, 'accountId'>): Promise<TPlanInfo> {
    const plan = await this.repo.findPlan(caller.accountId);
    // The account can vanish between authentication and here (an administrator removed it).
    if (!plan) throw notFound('ACCOUNT_NOT_FOUND');
    return {
      name: plan.planName,
      status: plan.planStatus,
      credits: plan.credits,
      renewsAt: plan.planRenewsAt ? new Date(plan.planRenewsAt).toISOString() : null,
    };
  }
}
