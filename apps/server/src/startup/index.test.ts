import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../types.ts';
import { runStartup, type StartupTask } from './index.ts';
import { STARTUP_TASKS } from './tasks.ts';

/** A logger that keeps its lines (pino's JSON objects) for the test to read. */
function recordingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

const deps = {} as Deps;

describe('start-up work', () => {
  it('runs the tasks one after another, in order, each logged with its duration', async () => {
    const { log, lines } = recordingLog();
    const ran: string[] = [];
    const task = (name: string): StartupTask => ({
      name,
      run: async (given) => {
        expect(given).toBe(deps);
        // The task before this one has ended: they never overlap.
        ran.push(`${name} start`);
        await new Promise((resolve) => setImmediate(resolve));
        ran.push(`${name} end`);
      },
    });
    const report = await runStartup(deps, log, [task('one'), task('two'), task('three')]);
    expect(ran).toEqual(['one start', 'one end', 'two start', 'two end', 'three start', 'three end']);
    expect(report.map(({ name, failed }) => ({ name, failed }))).toEqual([
      { name: 'one', failed: false },
      { name: 'two', failed: false },
      { name: 'three', failed: false },
    ]);
    const done = lines.filter((line) => line.msg === 'start-up task done');
    expect(done.map((line) => line.task)).toEqual(['one', 'two', 'three']);
    for (const line of done) expect(line.ms).toEqual(expect.any(Number));
  });

  it('logs a failing task as an error and still runs the ones after it; the start goes on', async () => {
    const { log, lines } = recordingLog();
    const ran: string[] = [];
    const report = await runStartup(deps, log, [
      { name: 'first', run: async () => void ran.push('first') },
      {
        name: 'broken',
        run: async () => {
          throw new Error('the chain is down');
        },
      },
      { name: 'last', run: async () => void ran.push('last') },
    ]);
    expect(ran).toEqual(['first', 'last']);
    expect(report.map(({ name, failed }) => ({ name, failed }))).toEqual([
      { name: 'first', failed: false },
      { name: 'broken', failed: true },
      { name: 'last', failed: false },
    ]);
    const failure = lines.find((line) => line.msg === 'start-up task failed');
    expect(failure).toMatchObject({ level: 50, task: 'broken', err: { message: 'the chain is down' } });
    expect(failure!.ms).toEqual(expect.any(Number));
  });

  it('seeds the tiers first and reconciles with the chains before it resumes the deployments', () => {
    const names = STARTUP_TASKS.map((task) => task.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toBe('seed token tiers');
    expect(names.indexOf('reconcile with the chains')).toBeLessThan(names.indexOf('resume token deployments'));
  });

  it('skips the work of a service that is off', async () => {
    const { log } = recordingLog();
    const off = { runtime: {}, config: { services: [] } } as unknown as Deps;
    const report = await runStartup(off, log);
    expect(report.filter((task) => task.failed)).toEqual([]);
  });
});
