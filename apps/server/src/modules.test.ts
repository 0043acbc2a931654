import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '@connect/shared';
import { JOBS, PLATFORM_JOBS } from './jobs/index.ts';
import { moduleJobs } from './modules.ts';
import { MODULES } from './services/index.ts';
import { STARTUP_TASKS } from './startup/tasks.ts';

const SERVICES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'services');
const folders = readdirSync(SERVICES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The module list (services/index.ts) is the one place the app is assembled from. */
describe('the module list', () => {
  it('has one module per folder under src/services, named for it, each in its module.ts', () => {
    expect(MODULES.map((module) => module.name).sort()).toEqual([...folders].sort());
    for (const folder of folders) expect(existsSync(path.join(SERVICES_DIR, folder, 'module.ts')), folder).toBe(true);
  });

  it('has a module serving the routes of every service of SERVICES, once', () => {
    for (const service of SERVICES) {
      const serving = MODULES.filter((module) => module.service === service);
      expect(serving, service).toHaveLength(1);
      expect(serving[0]!.routes, service).toBeTypeOf('function');
    }
  });

  it('gives every problem code at most one owner', () => {
    const owners = new Map<string, string>();
    for (const module of MODULES) {
      for (const code of module.codes ?? []) {
        expect(owners.get(code), `${code}: ${module.name}`).toBeUndefined();
        owners.set(code, module.name);
      }
    }
  });

  it("registers the platform's jobs and every module's, each name once", () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...PLATFORM_JOBS, ...moduleJobs(MODULES)].map((job) => job.name).sort());
  });

  it("runs every module's start-up tasks, each name once", () => {
    const names = STARTUP_TASKS.map((task) => task.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(MODULES.flatMap((module) => (module.startup ?? []).map((task) => task.name)));
  });
});
