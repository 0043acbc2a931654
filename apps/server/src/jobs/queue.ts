import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DbHandle } from '@connect/db';

export type JobContext = {
  id: string;
  retryCount: number;
  /**
   * Aborted when the queue starts stopping (the app closes): a handler that runs for long (a chain
   * follower's run) ends at once, before the queue's bounded wait for running jobs gives up on it.
   */
  signal?: AbortSignal;
  /** The queue's logger. */
  log?: FastifyBaseLogger;
};

export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;

export type WorkerOptions = {
  /** How often an idle worker looks for work; deploy tracking wants about a second. */
  pollingIntervalSeconds?: number;
  /** Jobs taken at once by this node. */
  batchSize?: number;
  /**
   * Jobs of this queue this node runs side by side (a pg-boss worker each; default 1). A job that
   * holds its worker for minutes (a chain follower's run) needs one worker per job it may run.
   */
  concurrency?: number;
  /**
   * pg-boss queue policy. `short`: at most one waiting job per singletonKey; `stately`: at most
   * one per key in each of waiting, retrying and active. `standard` ignores singleton keys.
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /**
   * The longest one job of this queue runs (the queue's setting, so scheduled jobs have it too;
   * pg-boss's default is 15 minutes). A job still active after it ran on a node that died: the
   * maintenance fails it and it is retried on a live node (issue 31). pg-boss also fails a
   * handler that outlives it, so leave the slowest run a wide margin.
   */
  expireInSeconds?: number;
  /**
   * A recurring job: a cron expression (UTC; pg-boss's finest is a minute). pg-boss queues it on
   * schedule once for all nodes (its cron clock is shared through the database); with the
   * `stately` policy at most one runs at a time.
   */
  schedule?: string;
  /**
   * A scheduled job also queued (with no data) when this node's queue starts, so its first run
   * does not wait up to a minute for the schedule's first tick (the chain followers).
   */
  runAtStart?: boolean;
  /**
   * The queue need not start for this worker: it starts when a job is sent to it (send starts the
   * queue), so a node whose only work is on demand (a test app with the KYC sandbox) installs
   * pg-boss only once something is sent. Housekeeping does not ride along with it (jobs/index.ts).
   */
  onDemand?: boolean;
};

export type SendOptions = {
  /** With a `short` or `stately` queue, a second job with the same key is refused (answers null). */
  singletonKey?: string;
  startAfterSeconds?: number;
  /** Not before this moment (to the millisecond; `startAfterSeconds` counts whole seconds). */
  startAfter?: Date;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
};

/**
 * How often pg-boss's maintenance runs (on one node at a time): it fails the active jobs past their
 * expiry, those of a node that died. On PostgreSQL, where nodes share the queue, every 10 s — and
 * pg-boss skips a tick that comes a hair before its period is over, so 20 s at worst (seen in the
 * two-node fault test) — so a dead node's deploy job is retried within a minute
 * (services/tokenise/scheduler.ts). The embedded database has one node, and its housekeeping is
 * cheap but noisy: once a minute.
 */
function maintenanceSeconds(dbh: DbHandle): number {
  return dbh.kind === 'postgres' ? 10 : 60;
}

type Registration = { name: string; handler: JobHandler<unknown>; options: WorkerOptions };

/**
 * Background jobs on pg-boss (ARCHITECTURE.md: jobs survive a restart; any number of nodes share
 * the queue through SKIP LOCKED). pg-boss runs on PGlite too, through `DbHandle.execute`.
 *
 * The jobs of src/jobs register their workers once the services are built (jobs/index.ts); services
 * only send. The queue starts when the app is ready and only if something registered, so apps
 * without background work never install pg-boss's schema.
 */
export class JobQueue {
  private boss: PgBoss | undefined;
  private starting: Promise<PgBoss> | undefined;
  private readonly registrations: Registration[] = [];
  private isStopped = false;
  /** Aborted when stop() begins; handed to every handler. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly dbh: DbHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Declares a queue and its worker; call while building the app (before `start`). */
  register<T>(name: string, handler: JobHandler<T>, options: WorkerOptions = {}): void {
    if (this.boss || this.starting) throw new Error(`Register job "${name}" before the queue starts.`);
    if (this.has(name)) throw new Error(`Job "${name}" is registered twice.`);
    this.registrations.push({ name, handler: handler as JobHandler<unknown>, options });
  }

  /** Whether the queue starts with the app: a worker not on demand is registered (see `onDemand`). */
  get hasWorkers(): boolean {
    return this.registrations.some((registration) => !registration.options.onDemand);
  }

  /** Whether this node has a worker for the queue (a job sent to a queue without one waits for another node). */
  has(name: string): boolean {
    return this.registrations.some((registration) => registration.name === name);
  }

  /** The queues with a worker on this node, in registration order. */
  get names(): string[] {
    return this.registrations.map((registration) => registration.name);
  }

  /** Starts pg-boss (installing its schema on first use) and the registered workers. */
  async start(): Promise<PgBoss> {
    if (this.boss) return this.boss;
    this.starting ??= this.startBoss();
    return this.starting;
  }

  private async startBoss(): Promise<PgBoss> {
    const dbh = this.dbh;
    const boss = new PgBoss({
      // Not a query of ours (so no repository): pg-boss runs its own SQL, on its own schema, through
      // this connection, which is how it works on PGlite as well as PostgreSQL.
      db: { executeSql: (text: string, values?: unknown[]) => dbh.execute(text, values) },
      schema: 'pgboss',
      maintenanceIntervalSeconds: maintenanceSeconds(dbh),
    } as PgBoss.ConstructorOptions);
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await boss.start();
    // The queues that exist already as registered are left out: one query for the list costs a
    // restart less than a call per queue (5–47 ms each on the embedded database; issue 30).
    const existing = new Map((await boss.getQueues()).map((queue) => [queue.name, queue]));
    for (const registration of this.registrations) {
      const { policy = 'standard', expireInSeconds } = registration.options;
      const settings = { name: registration.name, policy, ...(expireInSeconds ? { expireInSeconds } : {}) };
      const queue = existing.get(registration.name);
      if (!queue) await boss.createQueue(registration.name, settings);
      else if (queue.policy !== policy || (expireInSeconds && queue.expireInSeconds !== expireInSeconds)) {
        // New jobs take the queue's settings; jobs already queued keep theirs.
        await boss.updateQueue(registration.name, settings);
      }
      for (let worker = 0; worker < Math.max(1, registration.options.concurrency ?? 1); worker++) {
        await boss.work(
          registration.name,
          {
            pollingIntervalSeconds: registration.options.pollingIntervalSeconds ?? 2,
            batchSize: registration.options.batchSize ?? 1,
          },
          async (jobs) => {
            for (const job of jobs) {
              await registration.handler(job.data, {
                id: job.id,
                retryCount: (job as { retryCount?: number }).retryCount ?? 0,
                signal: this.stopping.signal,
                log: this.log,
              });
            }
          },
        );
      }
      if (registration.options.schedule) await boss.schedule(registration.name, registration.options.schedule);
      if (registration.options.runAtStart) await boss.send(registration.name, {});
    }
    this.boss = boss;
    // Which node takes which work, for an operator reading several nodes' logs (issue 31).
    if (this.registrations.length) this.log.info({ queues: this.names }, 'job queue: this node takes jobs');
    return boss;
  }

  /** Queues a job; answers its id, or null when a job with the same singletonKey is already queued. */
  async send(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
    if (this.isStopped) throw new Error('The job queue is stopped.');
    const boss = await this.start();
    return boss.send(name, data, {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      retryLimit: options.retryLimit ?? 3,
      retryDelay: options.retryDelaySeconds ?? 5,
      retryBackoff: options.retryBackoff ?? true,
      ...(options.expireInSeconds ? { expireInSeconds: options.expireInSeconds } : {}),
    });
  }

  /** Stops taking work and waits (bounded) for jobs in progress; the rest resume on the next start. */
  async stop(): Promise<void> {
    this.isStopped = true;
    this.stopping.abort();
    const boss = this.boss ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    if (!boss) return;
    await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.boss = undefined;
  }
}
