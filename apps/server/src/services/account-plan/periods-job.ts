import type { Job } from '../../jobs/job.ts';

/** The queue of the plans' periods (a pg-boss schedule queues it). */
export const PLAN_PERIODS_JOB = 'plan-periods';

/**
 * Every hour, the plans' time moves on (services/account-plan/periods.ts): trial reminders and
 * trial ends, ended periods (a cancelled plan ends, pay as you go rolls on, a subscription gets
 * its renewal order) and renewals unpaid after the grace days. Hourly rather than daily, so a plan
 * ends within the hour of its date. Every step locks the plan row and re-checks it, so a run on
 * two nodes, or a repeated run, changes nothing twice; `stately` keeps to one run at a time.
 * It rides along with the node's other jobs (housekeeping): a node with no queue (a test app
 * without chains) never installs pg-boss for it.
 */
export const planPeriodsJob: Job<object> = {
  name: PLAN_PERIODS_JOB,
  options: { policy: 'stately', schedule: '7 * * * *', pollingIntervalSeconds: 60 },
  housekeeping: true,
  worker: ({ runtime: { accountPlan } }) =>
    accountPlan
      ? async () => {
          await accountPlan.sweep(new Date());
        }
      : undefined,
};
