import type { ServiceModule } from '../../modules.ts';
import { closeHours, closeUntil, type CloseResult } from './close.ts';
import { usageCloseJob } from './close-job.ts';

declare module '../../types.ts' {
  interface Runtime {
    /** The gateway's closed hours made usage records and ledger consumption (close-job.ts, the dev billing routes). */
    usage?: { closeHours(now: Date): Promise<CloseResult>; closeUntil(at: Date): Promise<CloseResult> };
  }
}

/**
 * Usage (issue 17): the gateway's counted calls closed into usage records and ledger consumption,
 * on every node; its API is served under the application manager's prefix (that service's routes).
 */
export const usageModule: ServiceModule = {
  name: 'usage',
  assemble: ({ deps }) => {
    deps.runtime.usage = { closeHours: (now) => closeHours(deps, now), closeUntil: (at) => closeUntil(deps, at) };
  },
  jobs: [usageCloseJob],
};
