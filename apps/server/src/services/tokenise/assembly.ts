import { PlatformTxRepository } from '../../repositories/platform.ts';
import type { App, Deps } from '../../types.ts';
import { reconcileWithChains } from './chain-recovery.ts';
import { DEFAULT_TIMINGS, DeploymentEngine, type DeploymentTimings, type Outcome } from './deployment.ts';
import { TokenRepository } from './repository.ts';
import { tokeniseRoutes } from './routes.ts';
import { DeploymentScheduler } from './scheduler.ts';
import { TokeniseService } from './service.ts';
import { seedTokenTiers } from './tiers.ts';

/** Test hook: shorter deployment timings (restart and give-up tests). */
export const tokeniseTimings: { override?: Partial<DeploymentTimings> } = {};

/** What the tokenise service gives its job (deploy-job.ts) and start-up work (src/startup). */
export type TokeniseRuntime = {
  /**
   * Some network has an RPC URL, so deployments run on this node and the durable deployment job
   * has work. An app whose catalogue reaches no chain (most test apps) never deploys, so it does
   * not start the job queue for nothing; a network given an RPC URL later is served by the
   * in-process path and the start-up sweep until the next start.
   */
  deploys: boolean;
  /** One attempt of the deployment job, bounded by the job's wait ('waiting': the job comes back). */
  deployJobAttempt(tokenId: string): Promise<Outcome>;
  /** Tiers for every catalogue network, idempotently (like the catalogue itself). */
  seedTiers(): Promise<void>;
  /**
   * After a crash: what the chains lost of the platform's transactions is sent again, and what
   * cannot be is shown as it is (chain-recovery.ts). Before `resumeDeployments`.
   */
  reconcileWithChains(): Promise<void>;
  /** Follows again the deployments a previous run (a restart, a crash) left PENDING; answers how many. */
  resumeDeployments(): Promise<number>;
  /** Queues again the durable job of every deployment accepted over a minute ago and still followed. */
  sweep(): Promise<number>;
};

/**
 * The tokenise service (spec §7), assembled: its repository, deployment engine and scheduler, its
 * runtime face published on deps.runtime for jobs and start-up work, and its routes.
 */
export async function tokeniseService(app: App, deps: Deps): Promise<void> {
  const repo = new TokenRepository(deps.db, deps.events);
  const timings = { ...DEFAULT_TIMINGS, ...tokeniseTimings.override };
  const scheduler = new DeploymentScheduler(repo, deps.jobs, app.log, timings, (id, ms): Promise<Outcome> =>
    engine.attempt(id, ms),
  );
  const engine = new DeploymentEngine(repo, deps.sender, app.log, timings, scheduler);
  deps.runtime.tokenise = {
    deploys: await repo.anyNetworkWithRpc(),
    deployJobAttempt: (tokenId) => scheduler.process(tokenId, timings.jobWaitMs),
    seedTiers: () => seedTokenTiers(repo),
    reconcileWithChains: () =>
      reconcileWithChains({ repo, txRepo: new PlatformTxRepository(deps.db), engine, log: app.log }),
    resumeDeployments: () => scheduler.resume(),
    sweep: () => scheduler.sweep(),
  };
  // The job queue stops first (app.ts, gracefully, waiting for running jobs); then waits end here.
  app.addHook('preClose', async () => scheduler.stop());
  tokeniseRoutes(app, deps, new TokeniseService(repo, engine, scheduler));
}
