import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { eventDeliveries, outboxEvents, type Database } from '@connect/db';
import type { DomainEvent, EventType } from './catalogue.ts';

export type OutboxRow = typeof outboxEvents.$inferSelect;

/** Events per insert of appendMany. */
const APPEND_MANY_CHUNK = 10_000;

/** The only code that reads or writes the outbox and the subscribers' deliveries. */
export class OutboxRepository {
  constructor(private readonly db: Database) {}

  /**
   * Writes an event with `db` (the caller's transaction); answers its id. `isDelivered`: nobody
   * subscribes to it, so it is written delivered and no dispatcher ever writes it again.
   */
  static async append(
    db: Database,
    type: EventType,
    payload: object,
    accountId: string | null,
    isDelivered = false,
  ): Promise<string> {
    const [row] = await db
      .insert(outboxEvents)
      .values({ type, payload, accountId, ...(isDelivered ? { dispatchedAt: sql`now()` } : {}) })
      .returning({ id: outboxEvents.id });
    return row!.id;
  }

  /**
   * Writes many events of one type with `db` (the caller's transaction), ten thousand per
   * statement (a set-based job's announcements); `isDelivered` as for `append`.
   */
  static async appendMany(
    db: Database,
    type: EventType,
    events: readonly { payload: object; accountId: string | null }[],
    isDelivered = false,
  ): Promise<void> {
    if (events.length === 0) return;
    // One parameter (the events as JSON) per statement: no parameter limit, little to bind.
    for (let start = 0; start < events.length; start += APPEND_MANY_CHUNK) {
      const chunk = JSON.stringify(events.slice(start, start + APPEND_MANY_CHUNK));
      await db.execute(sql`
        insert into ${outboxEvents} (type, payload, account_id, dispatched_at)
        select ${type}, x.payload, x."accountId", ${isDelivered ? sql`now()` : sql`null`}
        from jsonb_to_recordset(${chunk}::jsonb) as x(payload jsonb, "accountId" uuid)`);
    }
  }

  /**
   * Takes up to `limit` events due for delivery, oldest first, leasing them to this node for
   * `leaseMs` (SKIP LOCKED: two nodes never take the same event; a node that dies lets its lease
   * run out and another takes the event again — at least once).
   */
  async claim(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    const now = sql`now()`;
    const due = this.db
      .select({ id: outboxEvents.id })
      .from(outboxEvents)
      .where(
        and(
          isNull(outboxEvents.dispatchedAt),
          lte(outboxEvents.availableAt, now),
          or(isNull(outboxEvents.lockedUntil), lte(outboxEvents.lockedUntil, now)),
        ),
      )
      .orderBy(asc(outboxEvents.seq))
      .limit(limit)
      .for('update', { skipLocked: true });
    const rows = await this.db
      .update(outboxEvents)
      .set({
        lockedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`,
        attempts: sql`${outboxEvents.attempts} + 1`,
      })
      .where(inArray(outboxEvents.id, due))
      .returning();
    return rows.sort((a, b) => a.seq - b.seq);
  }

  /** Every subscriber has the event: delivered. */
  async markDispatched(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db
      .update(outboxEvents)
      .set({ dispatchedAt: sql`now()`, lockedUntil: null, lastError: null })
      .where(inArray(outboxEvents.id, ids));
  }

  /** A subscriber failed: the event comes back after `retryInMs` (subscribers that succeeded are not run again). */
  async markFailed(id: string, error: string, retryInMs: number): Promise<void> {
    await this.db
      .update(outboxEvents)
      .set({
        lockedUntil: null,
        lastError: error.slice(0, 1000),
        availableAt: sql`now() + make_interval(secs => ${retryInMs / 1000})`,
      })
      .where(eq(outboxEvents.id, id));
  }

  /**
   * Records that `subscriber` handled the event, inside the transaction of its own work: false
   * when it had already (its work is then skipped, and the transaction writes nothing).
   */
  static async recordDelivery(tx: Database, subscriber: string, eventId: string): Promise<boolean> {
    const rows = await tx
      .insert(eventDeliveries)
      .values({ subscriber, eventId })
      .onConflictDoNothing()
      .returning({ eventId: eventDeliveries.eventId });
    return rows.length > 0;
  }

  /** Whether `subscriber` has handled the event (effects check before they run). */
  async isDelivered(subscriber: string, eventId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ eventId: eventDeliveries.eventId })
      .from(eventDeliveries)
      .where(and(eq(eventDeliveries.subscriber, subscriber), eq(eventDeliveries.eventId, eventId)));
    return Boolean(row);
  }

  /** Deletes events delivered more than `days` ago and their deliveries, in one statement; answers how many events. */
  async pruneDelivered(days: number): Promise<number> {
    const result = (await this.db.execute(sql`
      with gone as (
        delete from ${outboxEvents} where ${outboxEvents.dispatchedAt} < now() - make_interval(days => ${days}::int)
        returning ${outboxEvents.id}
      ), forgotten as (
        delete from ${eventDeliveries} where ${eventDeliveries.eventId} in (select id from gone)
      )
      select count(*)::int as "count" from gone`)) as unknown as { rows: { count: number }[] };
    return Number(result.rows[0]?.count ?? 0);
  }

  /** Events not delivered yet (tests and the operator's view). */
  async undelivered(): Promise<OutboxRow[]> {
    return this.db.select().from(outboxEvents).where(isNull(outboxEvents.dispatchedAt)).orderBy(asc(outboxEvents.seq));
  }

  /** The events of a type, oldest first (tests). */
  async ofType<K extends EventType>(type: K): Promise<DomainEvent<K>[]> {
    const rows = await this.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.type, type))
      .orderBy(asc(outboxEvents.seq));
    return rows.map((row) => toEvent(row) as DomainEvent<K>);
  }
}

export function toEvent(row: OutboxRow): DomainEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    payload: row.payload as DomainEvent['payload'],
    accountId: row.accountId,
    occurredAt: row.occurredAt,
  };
}
