import { describe, expect, it } from 'vitest';
import { registerJobs } from '../../jobs/index.ts';
import type { Deps, Runtime } from '../../types.ts';
import { qntSweepJob } from './sweep-job.ts';

type PaymentFace = NonNullable<Runtime['payment']>;

/** A payment face that records the runs it is asked for. */
function paymentFace(sweeps: boolean, runs: Date[] = []): PaymentFace {
  return {
    sweeps,
    sweep: async (now = new Date()) => {
      runs.push(now);
      return { recorded: 0, mined: 0, failed: 0, waiting: 0 };
    },
  };
}

describe('qnt-sweep job', () => {
  it('sweeps through the payment service with the clock, every ten minutes, one run at a time', async () => {
    const runs: Date[] = [];
    const before = Date.now();
    const handler = qntSweepJob.worker({ runtime: { payment: paymentFace(true, runs) } } as unknown as Deps)!;
    await handler({}, { id: 'job-1', retryCount: 0 });
    expect(runs).toHaveLength(1);
    expect(runs[0]!.getTime()).toBeGreaterThanOrEqual(before);
    expect(qntSweepJob.options).toMatchObject({ schedule: '*/10 * * * *', policy: 'stately' });
  });

  it('is registered only where the installation can sweep (not with an xpub, nor without the payment service)', () => {
    const names: string[] = [];
    const queue = { register: (name: string) => void names.push(name) } as never;
    const deps = (payment?: PaymentFace) => ({ runtime: { payment } }) as unknown as Deps;
    expect(registerJobs(queue, deps(), [qntSweepJob])).toEqual([]);
    expect(registerJobs(queue, deps(paymentFace(false)), [qntSweepJob])).toEqual([]);
    expect(registerJobs(queue, deps(paymentFace(true)), [qntSweepJob])).toEqual(['qnt-sweep']);
    expect(names).toEqual(['qnt-sweep']);
  });
});
