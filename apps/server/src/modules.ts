import type { FastifyBaseLogger } from 'fastify';
import type { ProblemCode, ServiceName } from '@connect/shared';
import type { Config } from './config.ts';
import type { AnyJob } from './jobs/job.ts';
import type { SealedPlace } from './lib/sealed-places.ts';
import type { StartupTask } from './startup/task.ts';
import type { App, Deps } from './types.ts';

/** What a module's hooks are handed while the app is built: the platform (deps) and the app's log. */
export type ModuleContext = { deps: Deps; log: FastifyBaseLogger };

/** A Fastify plugin of a service: its routes, registered in their own scope. */
export type RoutePlugin = (app: App, deps: Deps) => void | Promise<void>;

/** Routes a module serves outside /api/<service> (identity's /idp, the gateway's platform API). */
export type RouteScope = {
  /** The scope's prefix ('' for routes that name their whole path). */
  prefix: string;
  /** Whether this node serves the scope (the identity pool only when it is embedded...). */
  when(config: Config): boolean;
  plugin: RoutePlugin;
};

/**
 * One service, as the app is assembled from it (app.ts reads only this; src/services/index.ts
 * lists every module). Everything a service brings to the app is here: adding a service is its
 * folder (with its module.ts) and one line in the list.
 *
 * The order the app uses them in (app.ts): routes (the node's SERVICES, in their order), extra
 * route scopes, subscribers (every node), `assemble`, then the jobs and the start-up tasks; `start`
 * when the app is ready, `stop` when it closes (before the database does).
 */
export type ServiceModule = {
  /** The service's folder under src/services (a test holds each folder to one module). */
  name: string;
  /**
   * The entry of SERVICES (packages/shared) that turns the module's API on: `routes` are
   * registered under /api/<service> on a node that serves it. A module without one is a part
   * of the platform or of another service (identity, gateway, usage) and serves only `scopes`.
   */
  service?: ServiceName;
  /** The plugin registered under /api/<service>. */
  routes?: RoutePlugin;
  /** Route scopes outside /api/<service>, each where its `when` holds. */
  scopes?: readonly RouteScope[];
  /**
   * The module's event subscribers. Registered on EVERY node, whatever SERVICES it serves: the
   * node that emits an event writes it as delivered when nobody subscribes to it, so every node
   * must know the same subscribers.
   */
  subscribe?(context: ModuleContext): void;
  /**
   * Publishes the module's runtime face on `deps.runtime` (its field and type are declared in the
   * module's own file: see Runtime in types.ts) when the face is not built by its routes. Runs
   * after every module's routes and subscribers.
   */
  assemble?(context: ModuleContext): void | Promise<void>;
  /**
   * The module's background jobs (pg-boss workers, see jobs/job.ts): each one registered only on a
   * node where its `worker` answers a handler, that is where the node has its work.
   */
  jobs?: readonly AnyJob[];
  /** Idempotent catch-up work run once when the node starts, in order (startup/task.ts). */
  startup?: readonly StartupTask[];
  /** The problem codes (packages/shared problem-codes.ts) this module answers and no other module does. */
  codes?: readonly ProblemCode[];
  /**
   * What the module seals with SECRET_KEY and a start opens: each is opened before anything uses
   * it, and a key that no longer opens it refuses the start naming it (sealed-data.ts).
   */
  sealed?: readonly SealedPlace[];
  /** Starts what the module runs in the background (timers, loops): when the app is ready. */
  start?(context: ModuleContext): void | Promise<void>;
  /** Stops it: when the app closes, after the jobs' workers and before the database closes. */
  stop?(context: ModuleContext): void | Promise<void>;
};

/** The jobs of every module, in the list's order. */
export function moduleJobs(modules: readonly ServiceModule[]): AnyJob[] {
  return modules.flatMap((module) => module.jobs ?? []);
}

/** The start-up tasks of every module, in the list's order. */
export function moduleStartupTasks(modules: readonly ServiceModule[]): StartupTask[] {
  return modules.flatMap((module) => module.startup ?? []);
}
