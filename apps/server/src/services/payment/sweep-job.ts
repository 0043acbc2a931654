import type { Job } from '../../jobs/job.ts';

/** The queue of the QNT sweep (a pg-boss schedule queues it). */
export const QNT_SWEEP_JOB = 'qnt-sweep';

/**
 * Every ten minutes, QNT the follower confirmed at deposit addresses is moved to the treasury
 * (services/payment/sweep.ts). Registered only where the installation holds the deposit keys (the
 * embedded seed) and a platform key on the QNT network: with a configured xpub the operator sweeps
 * with their own wallet, and no node does. Every step of a sweep is a conditional change of its
 * row, so a run on two nodes, or a repeated one, sends nothing twice; `stately` keeps to one run at
 * a time all the same. A sweep that cannot go on (an unreachable node) is logged and taken up by
 * the next run, so the handler does not throw.
 */
export const qntSweepJob: Job<object> = {
  name: QNT_SWEEP_JOB,
  options: { policy: 'stately', schedule: '*/10 * * * *', pollingIntervalSeconds: 30 },
  worker: ({ runtime: { payment } }) =>
    payment?.sweeps
      ? async () => {
          await payment.sweep(new Date());
        }
      : undefined,
};
