import type { ServiceModule } from '../../modules.ts';
import { backfillTrialCredits } from '../../repositories/trial-credits.ts';
import { createPlanNotices } from '../connect/index.ts';
import { qntPayments } from '../payment/index.ts';
import {
  createAccountPlanRuntime,
  invoiceOrders,
  subscribeCardSettlement,
  subscribeOrderMails,
  subscribeQntSettlement,
  type AccountPlanRuntime,
} from './index.ts';
import { planPeriodsJob } from './periods-job.ts';
import { accountPlanService } from './routes.ts';

declare module '../../types.ts' {
  interface Runtime {
    /** The plans' periods: trial reminders and ends, period ends and renewals (periods-job.ts, the dev billing routes). */
    accountPlan?: AccountPlanRuntime;
  }
}

/** The account-plan service (spec §7): plans, orders, subscriptions and the plans' periods. */
export const accountPlanModule: ServiceModule = {
  name: 'account-plan',
  service: 'account-plan',
  routes: accountPlanService,
  subscribe: ({ deps, log }) => {
    subscribeOrderMails(deps.events, {
      db: deps.db,
      mailer: deps.mailer,
      billing: deps.config.billing,
      qnt: qntPayments(deps, log),
    });
    subscribeQntSettlement(deps, deps.events, log);
    subscribeCardSettlement(deps, deps.events, log);
  },
  assemble: ({ deps, log }) => {
    // The orders port of payment's invoices (payment/invoices/orders-port.ts), on every node: the
    // month's close and paying an invoice in QNT use the orders through it, never an import.
    deps.runtime.invoiceOrders = invoiceOrders(deps, log);
    // The plans' periods (trial ends and reminders, renewals), swept by periods-job.ts.
    if (!deps.config.services.includes('account-plan')) return;
    const { config } = deps;
    const notices = createPlanNotices({
      db: deps.db,
      mailer: deps.mailer,
      productSlug: config.productSlug,
      publicUrl: config.publicUrl,
    });
    deps.runtime.accountPlan = createAccountPlanRuntime(deps, notices, log);
  },
  jobs: [planPeriodsJob],
  startup: [
    {
      // Accounts get their trial credits when they are created (lib/portal-users.ts); the ones
      // created before that get theirs here, once, at the first start of this version.
      name: 'backfill trial credits',
      run: async ({ config, db }, log) => {
        if (!config.services.includes('account-plan')) return;
        const granted = await backfillTrialCredits(db);
        if (granted) log.info({ granted }, 'granted the trial credits to existing accounts');
      },
    },
  ],
  codes: [
    'RATE_PLAN_NOT_FOUND',
    'CREDIT_BUNDLE_NOT_FOUND',
    'ORDER_PENDING',
    'PLAN_ALREADY_CURRENT',
    'PLAN_NOT_AN_UPGRADE',
    'SUBSCRIPTION_NOT_CANCELLABLE',
    'TRIAL_NOT_EXTENDABLE',
    'ACCOUNT_PLAN_DISABLED',
    'SUBSCRIPTION_NOT_CANCELLED',
    'CREDITS_NOT_SOLD',
    'ORDER_NOT_CANCELLABLE',
    'ORDER_PARTLY_PAID',
    'PLAN_CHANGE_NOT_APPLICABLE',
    'TIER_NOT_FOUND',
    'TIER_IN_USE',
    'TIER_TYPE_FIXED',
    'TIER_NAME_EXISTS',
    'TIER_ORDER_STALE',
    'CREDIT_BUNDLE_IN_USE',
  ],
};
