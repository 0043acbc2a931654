import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../types.ts';

/**
 * Work a node does once when it starts, before it serves requests and before its job workers
 * start: catch-up work that is idempotent (a later start does it again if this one fails).
 * Each module lists its own (its module.ts: `startup`); a task reaches its service through the
 * service's runtime face (deps.runtime) and does nothing when that service is off.
 */
export type StartupTask = {
  /** Named in the start-up log lines. */
  name: string;
  run(deps: Deps, log: FastifyBaseLogger): Promise<void>;
};
