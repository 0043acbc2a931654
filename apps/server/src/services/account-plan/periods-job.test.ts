import { describe, expect, it } from 'vitest';
import { registerJobs } from '../../jobs/index.ts';
import type { Deps } from '../../types.ts';
import { tokenDeployJob } from '../tokenise/deploy-job.ts';
import type { AccountPlanRuntime } from './index.ts';
import { planPeriodsJob } from './periods-job.ts';

describe('plan-periods job', () => {
  it('sweeps the plans with the clock, hourly, one run at a time', async () => {
    const swept: Date[] = [];
    const accountPlan: AccountPlanRuntime = {
      sweep: async (now) => {
        swept.push(now);
        return { reminded: 0, trialsEnded: 0, periodsEnded: 0, renewalsFailed: 0 };
      },
    };
    const before = Date.now();
    await planPeriodsJob.worker({ runtime: { accountPlan } } as unknown as Deps)!({}, { id: 'job-1', retryCount: 0 });
    expect(swept).toHaveLength(1);
    expect(swept[0]!.getTime()).toBeGreaterThanOrEqual(before);
    expect(planPeriodsJob.options).toMatchObject({ schedule: '7 * * * *', policy: 'stately' });
  });

  it('has no work on a node without the account-plan service, and rides along with other jobs', () => {
    expect(planPeriodsJob.worker({ runtime: {} } as unknown as Deps)).toBeUndefined();
    const names: string[] = [];
    const queue = { register: (name: string) => names.push(name) } as never;
    const face = { sweep: async () => ({}) };
    expect(registerJobs(queue, { runtime: { accountPlan: face } } as unknown as Deps, [planPeriodsJob])).toEqual([]);
    const tokenise = { deploys: true, deployJobAttempt: async () => 'done' };
    const deps = { runtime: { accountPlan: face, tokenise } } as unknown as Deps;
    expect(registerJobs(queue, deps, [planPeriodsJob, tokenDeployJob])).toEqual(['token-deploy', 'plan-periods']);
  });
});
