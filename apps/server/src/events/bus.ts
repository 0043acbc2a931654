import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbHandle, Listener } from '@connect/db';
import type { DomainEvent, DomainEvents, EventType } from './catalogue.ts';
import type { EventBus, EventEffect, EventHandler } from './port.ts';
import { OutboxRepository, toEvent, type OutboxRow } from './repository.ts';

export type DispatchOptions = {
  /** How often an idle node looks for events other nodes (or its own commits) wrote. */
  pollMs: number;
  /** Events taken per round. */
  batchSize: number;
  /** How long a node holds the events it took before another node may take them again. */
  leaseMs: number;
  /** A failing subscriber's event comes back after this, doubled on each attempt up to 10 minutes. */
  retryMs: number;
};

export const DEFAULT_DISPATCH: DispatchOptions = { pollMs: 1_000, batchSize: 50, leaseMs: 60_000, retryMs: 1_000 };

const MAX_RETRY_MS = 600_000;

/** The channel a commit that wrote a due event notifies on PostgreSQL (every node listens). */
export const OUTBOX_CHANNEL = 'connect_outbox';

const NOTIFY = `select pg_notify('${OUTBOX_CHANNEL}', '')`;

/** How soon after an emit a node whose commits are not notified looks (PGlite). */
const NUDGE_MS = 25;

/** One subscriber of a type: `deliver` runs its work for an event once, recording it. */
type Subscription = { subscriber: string; deliver: (event: DomainEvent) => Promise<void> };

/**
 * The event bus over the outbox table (ARCHITECTURE.md, "Events and jobs").
 *
 * `emit` writes the event in the caller's transaction. The dispatcher takes due events with
 * SKIP LOCKED and a lease, and hands each to every subscriber of its type: a subscriber's work
 * runs in a transaction of its own that first records (subscriber, event id), so a subscriber
 * whose delivery is recorded is never run again for that event, whatever retries, restarts or
 * nodes follow; an effect is recorded right after it ran. An event is delivered when every
 * subscriber has it; a failing subscriber gets it again later, alone. Rounds of one node run one
 * at a time (the poller's and drain()'s). Delivery starts when the app is ready and stops before
 * the database closes. No order is promised between events (a retried one comes later).
 */
export class OutboxEventBus implements EventBus {
  private readonly subscriptions = new Map<EventType, Subscription[]>();
  private readonly names = new Set<string>();
  private readonly outbox: OutboxRepository;
  private readonly options: DispatchOptions;
  private timer: NodeJS.Timeout | undefined;
  /** The tail of this node's rounds: each round starts after the previous one ended. */
  private rounds: Promise<unknown> = Promise.resolve();
  private isTicking = false;
  private isStarted = false;
  private again = false;
  /** When the pending timer fires (so a later nudge never postpones a sooner round). */
  private timerAt = 0;
  /** The database handle, when commits are to wake the nodes through LISTEN/NOTIFY. */
  private readonly handle: Pick<DbHandle, 'kind' | 'listen'> | undefined;
  private listener: Promise<Listener | undefined> | undefined;

  /**
   * `handle` (the DbHandle `db` belongs to) lets a commit wake every node at once on PostgreSQL:
   * `emit` notifies OUTBOX_CHANNEL in the emitting transaction, which PostgreSQL delivers at its
   * commit to every node's LISTEN connection. Without it, or on PGlite, `emit` nudges this node
   * 25 ms later; the poll is the safety net either way.
   */
  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    options: Partial<DispatchOptions> & { handle?: Pick<DbHandle, 'kind' | 'listen'> } = {},
  ) {
    const { handle, ...dispatch } = options;
    this.outbox = new OutboxRepository(db);
    this.options = { ...DEFAULT_DISPATCH, ...dispatch };
    this.handle = handle;
  }

  /** True when commits notify the nodes (PostgreSQL with a handle). */
  private get isNotified(): boolean {
    return this.handle?.kind === 'postgres';
  }

  async emit<K extends EventType>(db: Database, type: K, payload: DomainEvents[K]): Promise<string> {
    const accountId = 'accountId' in payload && typeof payload.accountId === 'string' ? payload.accountId : null;
    // Every node registers the same subscribers (they are built with the app), so an event nobody
    // subscribes to is written delivered: kept for the record, never dispatched.
    const isSubscribed = this.subscriptions.has(type);
    const id = await OutboxRepository.append(db, type, payload, accountId, !isSubscribed);
    if (!isSubscribed) return id;
    if (this.isNotified) {
      // Delivered when the caller's transaction commits (never if it rolls back), to every node,
      // one per transaction however many events it wrote: a round before the commit would not
      // see the row yet.
      await db.execute(NOTIFY);
    } else if (this.isStarted) {
      // One connection (PGlite): the round waits for the caller's commit. Look soon.
      this.schedule(NUDGE_MS);
    }
    return id;
  }

  async emitMany<K extends EventType>(db: Database, type: K, payloads: readonly DomainEvents[K][]): Promise<number> {
    if (payloads.length === 0) return 0;
    const isSubscribed = this.subscriptions.has(type);
    const events = payloads.map((payload) => ({
      payload,
      accountId: 'accountId' in payload && typeof payload.accountId === 'string' ? payload.accountId : null,
    }));
    await OutboxRepository.appendMany(db, type, events, !isSubscribed);
    if (!isSubscribed) return payloads.length;
    if (this.isNotified) await db.execute(NOTIFY);
    else if (this.isStarted) this.schedule(NUDGE_MS);
    return payloads.length;
  }

  subscribe<K extends EventType>(subscriber: string, type: K, handler: EventHandler<K>): void {
    this.add(subscriber, type, (event) =>
      this.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        if (await OutboxRepository.recordDelivery(db, subscriber, event.id)) {
          await handler(event as DomainEvent<K>, db);
        }
      }),
    );
  }

  subscribeEffect<K extends EventType>(subscriber: string, type: K, effect: EventEffect<K>): void {
    this.add(subscriber, type, async (event) => {
      if (await this.outbox.isDelivered(subscriber, event.id)) return;
      await effect(event as DomainEvent<K>);
      await OutboxRepository.recordDelivery(this.db, subscriber, event.id);
    });
  }

  private add(subscriber: string, type: EventType, deliver: Subscription['deliver']): void {
    const key = `${subscriber}|${type}`;
    if (this.names.has(key)) throw new Error(`Subscriber "${subscriber}" is already subscribed to ${type}.`);
    this.names.add(key);
    this.subscriptions.set(type, [...(this.subscriptions.get(type) ?? []), { subscriber, deliver }]);
  }

  /** Starts delivering (app ready). */
  start(): void {
    if (this.isStarted) return;
    this.isStarted = true;
    if (this.isNotified) {
      this.listener = this.handle!.listen(
        OUTBOX_CHANNEL,
        () => this.schedule(0),
        (err) => this.log.warn({ err }, 'event bus: LISTEN connection failed; reconnecting (polling meanwhile)'),
      ).catch((err: unknown) => {
        this.log.error({ err }, 'event bus: cannot LISTEN; delivering on the poll only');
        return undefined;
      });
    }
    this.schedule(0);
  }

  /** Answers once this node listens for commits (tests; at once when it does not listen). */
  async listening(): Promise<void> {
    await this.listener;
  }

  /** Stops delivering and waits for the round in progress (app closing). */
  async stop(): Promise<void> {
    this.isStarted = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const listener = this.listener;
    this.listener = undefined;
    await (await listener)?.close();
    await this.rounds;
  }

  /**
   * Delivers every due event now, round after round until none is left (tests; and the dev
   * endpoint). Answers how many events were handled. Events leased by another node, or waiting
   * for their retry, are left to later.
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const handled = await this.exclusive(() => this.round());
      total += handled;
      if (handled === 0) return total;
    }
  }

  /**
   * Deletes delivered events older than `days`, with their deliveries: the outbox is a queue,
   * not an archive. Answers how many events went (jobs/outbox-prune.ts, nightly).
   */
  prune(days: number): Promise<number> {
    return this.outbox.pruneDelivered(days);
  }

  /** Runs `work` after this node's previous round, so drain() never races the poller. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.rounds.then(work);
    this.rounds = result.catch(() => undefined);
    return result;
  }

  /** Runs a round in `ms` (or sooner if one is due sooner); during a round, another right after it. */
  private schedule(ms: number): void {
    if (!this.isStarted) return;
    if (this.isTicking) {
      this.again = true;
      return;
    }
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = undefined;
    this.isTicking = true;
    void this.exclusive(() => this.round())
      .then((handled) => {
        if (handled === this.options.batchSize) this.again = true;
      })
      .catch((err: unknown) => this.log.error({ err }, 'event delivery round failed'))
      .finally(() => {
        this.isTicking = false;
        const again = this.again;
        this.again = false;
        this.schedule(again ? 0 : this.options.pollMs);
      });
  }

  /** One round: take due events and deliver them. Answers how many were taken. */
  private async round(): Promise<number> {
    const rows = await this.outbox.claim(this.options.batchSize, this.options.leaseMs);
    const delivered: string[] = [];
    for (const row of rows) {
      const error = await this.deliver(row);
      if (error === null) delivered.push(row.id);
      else {
        const retryMs = Math.min(this.options.retryMs * 2 ** Math.max(0, row.attempts - 1), MAX_RETRY_MS);
        await this.outbox.markFailed(row.id, error, retryMs);
      }
    }
    await this.outbox.markDispatched(delivered);
    return rows.length;
  }

  /** Hands one event to each of its subscribers; answers null, or the first failure. */
  private async deliver(row: OutboxRow): Promise<string | null> {
    const event = toEvent(row);
    let failure: string | null = null;
    for (const { subscriber, deliver } of this.subscriptions.get(event.type) ?? []) {
      try {
        await deliver(event);
      } catch (err) {
        this.log.warn(
          { err, subscriber, eventId: event.id, type: event.type },
          'event subscriber failed; retried later',
        );
        failure ??= `${subscriber}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    return failure;
  }
}
