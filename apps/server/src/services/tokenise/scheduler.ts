import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import type { DeploymentSchedule, DeploymentTimings, Outcome } from './deployment.ts';
import type { TokenRepository } from './repository.ts';

/*
 * When and where deployments run: a durable job from the moment a deployment is accepted, and at
 * once in-process as its head start (one attempt per token on this node). What one attempt does is
 * the engine's (deployment.ts).
 */

/**
 * The pg-boss queue that drives deployments (send → receipt → ACTIVE or FAILED); its worker is
 * deploy-job.ts (deployJobAttempt), this scheduler only sends to it.
 */
export const DEPLOY_JOB = 'token-deploy';

/**
 * A deploy job answers within `jobWaitMs` + 1 s (5 s: `process` bounds its wait, the attempt goes
 * on in-process), so a job still active after 12 s ran on a node that died. pg-boss's maintenance
 * (every 10 s on PostgreSQL, jobs/queue.ts, though it may skip a tick and take 20) fails it, and it
 * is retried on a live node after its retry delay (10 s) and a poll (1 s): at most 12 + 20 + 10 + 1
 * = 43 s after the death (issue 31: within a minute).
 */
export const DEPLOY_JOB_EXPIRE_SECONDS = 12;

/** One attempt at moving a token's deployment forward (DeploymentEngine.attempt). */
export type AttemptRunner = (tokenId: string, maxWaitMs: number) => Promise<Outcome>;

/**
 * Schedules deployments.
 *
 * A deployment's durable job is queued as soon as it is accepted, due `jobAfterMs` later; the
 * in-process attempt on the accepting node is only its head start, so it does not wait for a job
 * poll. A deployment done within the head start leaves the job nothing to do (it reads the token
 * and ends); one that is not — or whose node died — is the job's (retried, any node; issue 31:
 * finished by the surviving nodes within a minute). A job taken by a node that dies is failed by
 * pg-boss's maintenance after its expiry and retried elsewhere (deploy-job.ts). Should the queue
 * refuse the send (the database briefly away), the minute's sweep (deploy-sweep-job.ts) and every
 * start-up (`resume`) queue it again. Every path runs the same idempotent steps: a node runs one
 * attempt per token at a time, and across nodes the database decides (see the engine).
 */
export class DeploymentScheduler implements DeploymentSchedule {
  private readonly inflight = new Map<string, Promise<Outcome>>();
  private readonly abort = new AbortController();
  /** Sends of durable jobs not answered yet (stop waits for them). */
  private readonly sending = new Set<Promise<void>>();

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

  /** Starts processing at once in this process, with its durable job queued behind it. */
  kick(tokenId: string): void {
    if (this.abort.signal.aborted) return;
    this.queueJob(tokenId);
    this.logFailure(tokenId, this.process(tokenId));
  }

  /** An attempt started elsewhere (a new deployment's follow): one per token, its durable job queued behind it. */
  track(tokenId: string, attempt: Promise<Outcome>): void {
    this.queueJob(tokenId);
    const tracked = attempt.finally(() => this.inflight.delete(tokenId));
    this.inflight.set(tokenId, tracked);
    this.logFailure(tokenId, tracked);
  }

  private logFailure(tokenId: string, attempt: Promise<Outcome>): void {
    attempt.catch((err: unknown) => this.log.warn({ err, tokenId }, 'deployment attempt failed; its job goes on'));
  }

  /** Queues the deployment's durable job, due after the in-process head start (one waiting job per token). */
  private queueJob(tokenId: string, startAfterMs = this.timings.jobAfterMs): void {
    if (this.abort.signal.aborted) return;
    const sent = this.sendJob(tokenId, startAfterMs).finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private async sendJob(tokenId: string, startAfterMs: number): Promise<void> {
    try {
      await this.jobs.send(
        DEPLOY_JOB,
        { tokenId },
        {
          singletonKey: tokenId,
          startAfter: new Date(Date.now() + startAfterMs),
          retryLimit: 240,
          retryDelaySeconds: this.timings.retryDelaySeconds,
          retryBackoff: false,
        },
      );
    } catch (err) {
      // The minute's sweep and the next start-up queue it again.
      if (!this.abort.signal.aborted) this.log.warn({ err, tokenId }, 'could not queue the deployment job');
    }
  }

  /**
   * The minute's sweep (deploy-sweep-job.ts): queues the durable job of every deployment still to
   * be followed that was accepted more than a minute ago, so one whose send was refused is not
   * left behind; a token whose job waits already keeps it (one waiting job per token).
   */
  async sweep(): Promise<number> {
    const pending = await this.repo.pendingTrackable(new Date(Date.now() - 60_000));
    await Promise.all(pending.map(({ id }) => this.sendJob(id, 0)));
    return pending.length;
  }

  /** Follows again every deployment that must still be followed (after a restart). */
  async resume(): Promise<number> {
    const pending = await this.repo.pendingTrackable();
    for (const { id } of pending) this.kick(id);
    return pending.length;
  }

  /** Stops waiting; in-flight attempts end as 'waiting' and go on in their jobs. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.sending, ...this.inflight.values()]);
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
