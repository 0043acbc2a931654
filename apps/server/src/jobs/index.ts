import type { Deps } from '../types.ts';
import { feeBumpJob } from './fee-bump.ts';
import type { AnyJob } from './job.ts';
import type { JobQueue } from './queue.ts';
import { tokenDeployJob } from './token-deploy.ts';

/** Every background job of the app, one file each (see job.ts); registered once, at start-up. */
export const JOBS: readonly AnyJob[] = [tokenDeployJob, feeBumpJob];

/**
 * Registers the worker of every job this node has work for; call once the services are built
 * (their runtime faces are on deps) and before the queue starts. Answers the registered names.
 */
export function registerJobs(queue: JobQueue, deps: Deps, jobs: readonly AnyJob[] = JOBS): string[] {
  const registered: string[] = [];
  for (const job of jobs) {
    const handler = job.worker(deps);
    if (!handler) continue;
    queue.register(job.name, handler, job.options);
    registered.push(job.name);
  }
  return registered;
}
