import type { Deps } from '../types.ts';
import { cardChargesJob } from './card-charges.ts';
import { chainFollowJob } from './chain-follow.ts';
import { feeBumpJob } from './fee-bump.ts';
import { invoiceCloseJob } from './invoice-close.ts';
import { outboxPruneJob } from './outbox-prune.ts';
import { planPeriodsJob } from './plan-periods.ts';
import { qntSweepJob } from './qnt-sweep.ts';
import type { AnyJob } from './job.ts';
import type { JobQueue } from './queue.ts';
import { tokenDeployJob } from './token-deploy.ts';
import { usageCloseJob } from './usage-close.ts';

/** Every background job of the app, one file each (see job.ts); registered once, at start-up. */
export const JOBS: readonly AnyJob[] = [
  tokenDeployJob,
  feeBumpJob,
  chainFollowJob,
  outboxPruneJob,
  planPeriodsJob,
  qntSweepJob,
  cardChargesJob,
  usageCloseJob,
  invoiceCloseJob,
];

/**
 * Registers the worker of every job this node has work for; call once the services are built
 * (their runtime faces are on deps) and before the queue starts. Answers the registered names.
 */
export function registerJobs(queue: JobQueue, deps: Deps, jobs: readonly AnyJob[] = JOBS): string[] {
  const registered: string[] = [];
  const register = (job: AnyJob) => {
    const handler = job.worker(deps);
    if (!handler) return;
    queue.register(
      job.name,
      handler,
      job.concurrency ? { ...job.options, concurrency: job.concurrency(deps) } : job.options,
    );
    registered.push(job.name);
  };
  for (const job of jobs) if (!job.housekeeping) register(job);
  if (registered.length) for (const job of jobs) if (job.housekeeping) register(job);
  return registered;
}
