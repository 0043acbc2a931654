import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../types.ts';
import type { StartupTask } from './task.ts';
import { STARTUP_TASKS } from './tasks.ts';

export type { StartupTask } from './task.ts';

/** How each task ended, in order. */
export type StartupReport = { name: string; ms: number; failed: boolean }[];

/**
 * Runs the start-up tasks one after another (app.ts, in its onReady hook), each logged with its
 * duration. A failing task is logged as an error and the ones after it still run; it does not
 * stop the start: every task is catch-up work the next start does again, and a node that will
 * not start because one chain or one backfill misbehaves serves no one.
 */
export async function runStartup(
  deps: Deps,
  log: FastifyBaseLogger,
  tasks: readonly StartupTask[] = STARTUP_TASKS,
): Promise<StartupReport> {
  const report: StartupReport = [];
  for (const task of tasks) {
    const started = performance.now();
    let failed = false;
    try {
      await task.run(deps, log);
    } catch (err) {
      failed = true;
      log.error({ err, task: task.name, ms: elapsed(started) }, 'start-up task failed');
    }
    const ms = elapsed(started);
    if (!failed) log.info({ task: task.name, ms }, 'start-up task done');
    report.push({ name: task.name, ms, failed });
  }
  return report;
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
