import { moduleJobs } from '../modules.ts';
import { MODULES } from '../services/index.ts';
import type { Deps } from '../types.ts';
import { chainFollowJob } from './chain-follow.ts';
import { feeBumpJob } from './fee-bump.ts';
import type { AnyJob } from './job.ts';
import { outboxPruneJob } from './outbox-prune.ts';
import type { JobQueue } from './queue.ts';

/** The platform's own jobs, one file each here (see job.ts): the chains' and the outbox's. */
export const PLATFORM_JOBS: readonly AnyJob[] = [feeBumpJob, chainFollowJob, outboxPruneJob];

const ALL_JOBS = [...PLATFORM_JOBS, ...moduleJobs(MODULES)];

/**
 * Every background job of the app: the platform's and those of the modules (each service's
 * module.ts lists its own), in the order they are registered (registerJobs: housekeeping last);
 * registered once, at start-up.
 */
export const JOBS: readonly AnyJob[] = [
  ...ALL_JOBS.filter((job) => !job.housekeeping),
  ...ALL_JOBS.filter((job) => job.housekeeping),
];

/**
 * Registers the worker of every job this node has work for; call once the modules are assembled
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
  // Housekeeping rides along with work that starts the queue, not with work on demand.
  const startsQueue = jobs.some((job) => registered.includes(job.name) && !job.options.onDemand);
  if (startsQueue) for (const job of jobs) if (job.housekeeping) register(job);
  return registered;
}
