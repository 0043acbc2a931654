import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../types.ts';

/**
 * Work a node does once when it starts, before it serves requests and before its job workers
 * start: catch-up work that is idempotent (a later start does it again if this one fails).
 * Listed in order in startup/tasks.ts; it reaches a service through its runtime face
 * (deps.runtime) or its index.ts, and does nothing when that service is off.
 */
export type StartupTask = {
  /** Named in the start-up log lines. */
  name: string;
  run(deps: Deps, log: FastifyBaseLogger): Promise<void>;
};
