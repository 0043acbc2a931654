import type { Deps } from '../types.ts';
import type { JobHandler, WorkerOptions } from './queue.ts';

/**
 * A background job: one file each, the platform's in src/jobs (listed in jobs/index.ts), a
 * service's in its folder (listed by its module.ts). It reaches its service through the service's
 * runtime face (deps.runtime, published while the modules are assembled).
 */
export type Job<T> = {
  /** The pg-boss queue's name. */
  name: string;
  /** Polling, batch size, queue policy, and `schedule` for a recurring job. */
  options: WorkerOptions;
  /**
   * The job's handler on this node, or undefined when this node has no work for it (its service
   * is off, no chain is configured): the job is then not registered, and a node with no
   * registered job never starts the queue (no pg-boss schema for test apps without chains).
   */
  worker(deps: Deps): JobHandler<T> | undefined;
  /**
   * How many of its jobs this node runs side by side, when that depends on the node (one per chain
   * it follows); `options.concurrency` otherwise.
   */
  concurrency?(deps: Deps): number;
  /**
   * Housekeeping rides along: registered only on a node that registers another job, so a node
   * (or test app) with no work of its own never starts the queue for housekeeping alone.
   */
  housekeeping?: boolean;
};

/** Any job, whatever its data (a list of jobs). */
export type AnyJob = Job<never>;
