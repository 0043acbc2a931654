import type { ServiceModule } from '../../modules.ts';
import { tokeniseService, type TokeniseRuntime } from './assembly.ts';
import { tokenDeployJob } from './deploy-job.ts';
import { deploySweepJob } from './deploy-sweep-job.ts';

declare module '../../types.ts' {
  interface Runtime {
    /** Deployments: the token-deploy job's attempts and the start-up's catch-up (assembly.ts publishes it). */
    tokenise?: TokeniseRuntime;
  }
}

/** The tokenise service (spec §7): tokens and their deployments. */
export const tokeniseModule: ServiceModule = {
  name: 'tokenise',
  service: 'tokenise',
  routes: tokeniseService,
  jobs: [tokenDeployJob, deploySweepJob],
  startup: [
    { name: 'seed token tiers', run: async ({ runtime }) => runtime.tokenise?.seedTiers() },
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
  ],
  codes: [
    'TOKEN_NOT_FOUND',
    'NETWORKS_NOT_CONFIGURED',
    'TOKEN_LOCATION_UNAVAILABLE',
    'TOKEN_TIER_UNAVAILABLE',
    'TOKEN_TIER_TYPE',
    'NO_PLATFORM_DEPLOYER',
    'INSUFFICIENT_CREDITS',
    'EXTERNAL_ID_TAKEN',
    'TOKEN_NOT_EDITABLE',
    'TOKEN_STATUS_CHANGE',
    'NOT_WALLET_DEPLOYMENT',
    'TOKEN_ALREADY_TRACKED',
    'TX_HASH_TAKEN',
    'DEPLOYMENT_NOT_CANCELLABLE',
  ],
};
