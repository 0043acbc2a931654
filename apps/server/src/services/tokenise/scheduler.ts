import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import type { DeploymentSchedule, DeploymentTimings, Outcome } from './deployment.ts';
import type { TokenRepository } from './repository.ts';

/*
 * When and where deployments run: at once in-process (one attempt per token on this node), then a
 * durable job when that attempt does not end done soon. What one attempt does is the engine's
 * (deployment.ts).
 */

/**
 * The pg-boss queue that drives deployments (send → receipt → ACTIVE or FAILED); its worker is
 * deploy-job.ts (deployJobAttempt), this scheduler only sends to it.
 */
export const DEPLOY_JOB = 'token-deploy';

/** One attempt at moving a token's deployment forward (DeploymentEngine.attempt). */
export type AttemptRunner = (tokenId: string, maxWaitMs: number) => Promise<Outcome>;

/**
 * Schedules deployments.
 *
 * A deployment runs at once in-process on the node that created or tracked it, so it does not wait
 * for a job poll; when that attempt has not ended within `jobAfterMs` (or ends waiting, or fails),
 * a pg-boss job takes over (durable, retried, any node), and every start-up follows again the
 * deployments left PENDING (`resume`, from src/startup). Every path runs the same idempotent steps: a node runs one attempt per token at a
 * time, and across nodes the database decides (see the engine).
 */
export class DeploymentScheduler implements DeploymentSchedule {
  private readonly inflight = new Map<string, Promise<Outcome>>();
  private readonly abort = new AbortController();
  private readonly jobTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly repo: TokenRepository,
    private readonly jobs: JobQueue,
    private readonly log: FastifyBaseLogger,
    private readonly timings: DeploymentTimings,
    private readonly run: AttemptRunner,
  ) {}

  /** Aborted by `stop`: waits and RPC calls of running attempts end. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Starts processing at once in this process; the durable job follows if it does not end soon. */
  kick(tokenId: string): void {
    if (this.abort.signal.aborted) return;
    this.backUp(tokenId, this.process(tokenId));
  }

  /** An attempt started elsewhere (a new deployment's follow): one per token, backed up by the job. */
  track(tokenId: string, attempt: Promise<Outcome>): void {
    const tracked = attempt.finally(() => this.inflight.delete(tokenId));
    this.inflight.set(tokenId, tracked);
    this.backUp(tokenId, tracked);
  }

  /**
   * Queues the durable job of a deployment unless its in-process attempt ends done within
   * `jobAfterMs`: after that time, or as soon as the attempt ends waiting or fails.
   */
  private backUp(tokenId: string, attempt: Promise<Outcome>): void {
    let queued = false;
    const queue = () => {
      clearTimeout(timer);
      this.jobTimers.delete(timer);
      if (queued) return;
      queued = true;
      void this.queueJob(tokenId);
    };
    const timer = setTimeout(queue, this.timings.jobAfterMs);
    this.jobTimers.add(timer);
    attempt.then(
      (outcome) => {
        if (outcome === 'done') {
          clearTimeout(timer);
          this.jobTimers.delete(timer);
        } else queue();
      },
      (err: unknown) => {
        this.log.warn({ err, tokenId }, 'deployment attempt failed');
        queue();
      },
    );
  }

  private async queueJob(tokenId: string): Promise<void> {
    // No worker on this node (no chain when it started: deploy-job.ts), or shutting down:
    // the start-up sweep is the safety net.
    if (!this.jobs.has(DEPLOY_JOB) || this.abort.signal.aborted) return;
    try {
      await this.jobs.send(
        DEPLOY_JOB,
        { tokenId },
        {
          singletonKey: tokenId,
          retryLimit: 240,
          retryDelaySeconds: this.timings.retryDelaySeconds,
          retryBackoff: false,
        },
      );
    } catch (err) {
      // The start-up sweep queues it again.
      this.log.warn({ err, tokenId }, 'could not queue the deployment job');
    }
  }

  /** Follows again every deployment that must still be followed (after a restart). */
  async resume(): Promise<number> {
    const pending = await this.repo.pendingTrackable();
    for (const { id } of pending) this.kick(id);
    return pending.length;
  }

  /** Stops waiting; in-flight attempts end as 'waiting' and resume from their jobs or the next start. */
  async stop(): Promise<void> {
    this.abort.abort();
    for (const timer of this.jobTimers) clearTimeout(timer);
    this.jobTimers.clear();
    await Promise.allSettled([...this.inflight.values()]);
  }

  /**
   * One attempt at moving a token's deployment forward; one at a time per token in this process.
   * `maxWaitMs` bounds how long the caller waits ('waiting' after it; the attempt goes on).
   */
  process(tokenId: string, maxWaitMs = this.timings.maxWaitMs): Promise<Outcome> {
    let attempt = this.inflight.get(tokenId);
    if (!attempt) {
      attempt = this.run(tokenId, maxWaitMs).finally(() => this.inflight.delete(tokenId));
      this.inflight.set(tokenId, attempt);
    }
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), maxWaitMs + 1_000);
    });
    return Promise.race([attempt, bound]).finally(() => clearTimeout(timer));
  }
}
