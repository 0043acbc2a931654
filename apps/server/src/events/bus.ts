import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { DomainEvents, EventType } from './catalogue.ts';
import type { EventBus, EventHandler } from './port.ts';
import { OutboxRepository, toEvent, type OutboxRow } from './repository.ts';

export type DispatchOptions = {
  /** How often an idle node looks for events other nodes (or its own commits) wrote. */
  pollMs: number;
  /** Events taken per round. */
  batchSize: number;
  /** How long a node holds the events it took before another node may take them again. */
  leaseMs: number;
};

export const DEFAULT_DISPATCH: DispatchOptions = { pollMs: 1_000, batchSize: 50, leaseMs: 60_000 };

/** A failing subscriber's event comes back after 1 s, 2 s, 4 s … up to 10 minutes. */
const retryDelayMs = (attempts: number) => Math.min(1_000 * 2 ** Math.max(0, attempts - 1), 600_000);

type Subscription = { subscriber: string; handler: EventHandler<EventType> };

/**
 * The event bus over the outbox table (ARCHITECTURE.md, "Events and jobs").
 *
 * `emit` writes the event in the caller's transaction. The dispatcher takes due events with
 * SKIP LOCKED and a lease, and hands each to every subscriber of its type in a transaction of
 * that subscriber's own that first records (subscriber, event id): a subscriber whose delivery is
 * recorded is never run again for that event, whatever retries, restarts or nodes follow. An event
 * is delivered when every subscriber has it; a failing subscriber gets it again later, alone.
 * Delivery starts when the app is ready and stops before the database closes.
 */
export class OutboxEventBus implements EventBus {
  private readonly subscriptions = new Map<EventType, Subscription[]>();
  private readonly names = new Set<string>();
  private readonly outbox: OutboxRepository;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private isStarted = false;
  private again = false;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: DispatchOptions = DEFAULT_DISPATCH,
  ) {
    this.outbox = new OutboxRepository(db);
  }

  async emit<K extends EventType>(db: Database, type: K, payload: DomainEvents[K]): Promise<string> {
    const accountId = 'accountId' in payload && typeof payload.accountId === 'string' ? payload.accountId : null;
    const id = await OutboxRepository.append(db, type, payload, accountId);
    // The caller's transaction commits after this; look soon (the poll is the safety net).
    if (this.isStarted && this.subscriptions.has(type)) this.schedule(25);
    return id;
  }

  subscribe<K extends EventType>(subscriber: string, type: K, handler: EventHandler<K>): void {
    const key = `${subscriber}|${type}`;
    if (this.names.has(key)) throw new Error(`Subscriber "${subscriber}" is already subscribed to ${type}.`);
    this.names.add(key);
    const list = this.subscriptions.get(type) ?? [];
    list.push({ subscriber, handler: handler as unknown as EventHandler<EventType> });
    this.subscriptions.set(type, list);
  }

  /** Starts delivering (app ready). */
  start(): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.schedule(0);
  }

  /** Stops delivering and waits for the round in progress (app closing). */
  async stop(): Promise<void> {
    this.isStarted = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * Delivers every due event now, round after round until none is left (tests; and the dev
   * endpoint). Answers how many events were handled.
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      await this.running;
      const handled = await this.round();
      total += handled;
      if (handled === 0) return total;
    }
  }

  private schedule(ms: number): void {
    if (!this.isStarted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = undefined;
    this.running = this.round()
      .then((handled) => {
        if (handled === this.options.batchSize) this.again = true;
      })
      .catch((err: unknown) => this.log.error({ err }, 'event delivery round failed'))
      .finally(() => {
        this.running = undefined;
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
      else await this.outbox.markFailed(row.id, error, retryDelayMs(row.attempts));
    }
    await this.outbox.markDispatched(delivered);
    return rows.length;
  }

  /** Hands one event to each of its subscribers; answers null, or the first failure. */
  private async deliver(row: OutboxRow): Promise<string | null> {
    const event = toEvent(row);
    let failure: string | null = null;
    for (const { subscriber, handler } of this.subscriptions.get(event.type) ?? []) {
      try {
        await this.db.transaction(async (tx) => {
          const db = tx as unknown as Database;
          if (await OutboxRepository.recordDelivery(db, subscriber, event.id)) await handler(event, db);
        });
      } catch (err) {
        this.log.warn({ err, subscriber, eventId: event.id, type: event.type }, 'event subscriber failed; retried later');
        failure ??= `${subscriber}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    return failure;
  }
}
