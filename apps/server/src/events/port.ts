import type { Database } from '@connect/db';
import type { DomainEvent, DomainEvents, EventType } from './catalogue.ts';

/**
 * A subscriber's work for one event. `tx` is the transaction in which the delivery is recorded
 * (subscriber, event id): do the subscriber's own writes through repositories built over it, so
 * they happen exactly once. Nothing else may touch the database meanwhile (on PGlite a statement
 * outside `tx` would wait for `tx` for ever), so outside effects are effects, below.
 */
export type EventHandler<K extends EventType> = (event: DomainEvent<K>, tx: Database) => Promise<void>;

/**
 * An outside effect of one event (an email, a webhook, a chain call): run outside any
 * transaction, then recorded. A crash between the two runs it again, so it must be keyed by
 * `event.id` (the mailer's `dedupeKey`, an idempotency key) to happen once.
 */
export type EventEffect<K extends EventType> = (event: DomainEvent<K>) => Promise<void>;

/**
 * The typed event bus (a Fastify decorator: `app.events`). `emit` writes the event to the outbox
 * with `db` — the transaction of the change it announces — so the event exists if and only if the
 * change does; delivery is at least once, after the commit, on any node.
 */
export interface EventBus {
  emit<K extends EventType>(db: Database, type: K, payload: DomainEvents[K]): Promise<string>;
  /**
   * Like `emit` for many events of one type, written by one statement per few thousand (a set-based
   * job, e.g. the month's close announcing every invoice); answers how many were written.
   */
  emitMany<K extends EventType>(db: Database, type: K, payloads: readonly DomainEvents[K][]): Promise<number>;
  /**
   * Registers a subscriber while the app is built; `subscriber` is its stable name (deliveries are
   * recorded under it, so renaming it delivers every past event again).
   */
  subscribe<K extends EventType>(subscriber: string, type: K, handler: EventHandler<K>): void;
  /** Registers an outside effect (see EventEffect) under a stable name, like `subscribe`. */
  subscribeEffect<K extends EventType>(subscriber: string, type: K, effect: EventEffect<K>): void;
  /** Delivers every due event now, until none is left; answers how many (tests and the dev endpoints). */
  drain(): Promise<number>;
  /** Deletes delivered events older than `days` (housekeeping: jobs/outbox-prune.ts); answers how many. */
  prune(days: number): Promise<number>;
}
