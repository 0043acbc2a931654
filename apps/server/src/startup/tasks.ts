import { moduleStartupTasks } from '../modules.ts';
import { MODULES } from '../services/index.ts';
import type { StartupTask } from './task.ts';

/**
 * The start-up work, in the order it runs (startup/index.ts): each module's tasks (its module.ts),
 * in the module list's order.
 */
export const STARTUP_TASKS: readonly StartupTask[] = moduleStartupTasks(MODULES);
