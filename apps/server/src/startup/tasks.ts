import { backfillTrialCredits } from '../repositories/trial-credits.ts';
import type { StartupTask } from './task.ts';

/** The start-up work, in the order it runs (startup/index.ts). */
export const STARTUP_TASKS: readonly StartupTask[] = [
  {
    name: 'seed token tiers',
    run: async ({ runtime }) => runtime.tokenise?.seedTiers(),
  },
  {
    // Accounts get their trial credits when they are created (lib/portal-users.ts); the ones
    // created before that get theirs here, once, at the first start of this version.
    name: 'backfill trial credits',
    run: async ({ config, db }, log) => {
      if (!config.services.includes('account-plan')) return;
      const granted = await backfillTrialCredits(db);
      if (granted) log.info({ granted }, 'granted the trial credits to existing accounts');
    },
  },
  {
    // Before the deployments are followed again: a lost transaction is sent again first.
    name: 'reconcile with the chains',
    run: async ({ runtime }) => runtime.tokenise?.reconcileWithChains(),
  },
  {
    name: 'resume token deployments',
    run: async ({ runtime }, log) => {
      const resumed = await runtime.tokenise?.resumeDeployments();
      if (resumed) log.info({ resumed }, 'resumed token deployments');
    },
  },
  {
    name: 'resume identity checks',
    run: async ({ runtime }) => runtime.kyc?.resume(),
  },
];
