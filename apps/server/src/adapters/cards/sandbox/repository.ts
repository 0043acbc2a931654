import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import { cardSandboxEvents, cardSandboxObjects, type Database } from '@connect/db';

/** A response stored under an idempotency key: the same key and path answer it again. */
export type StoredAnswer = { method: string; path: string; requestHash: string; status: number; body: unknown };

export type PendingEvent = { id: string; type: string; payload: string; attempts: number };

/**
 * The card sandbox's state (what Stripe would hold) and its webhook queue. Every change of one
 * API call runs in one transaction (`transaction`), with the events it records, so an event
 * exists exactly when the change it reports does.
 */
export class CardSandboxRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (repo: CardSandboxRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new CardSandboxRepository(tx as unknown as Database)));
  }

  /** The object of this kind with this id; `forUpdate` holds it until the transaction ends. */
  async find<T>(object: string, id: string, options: { forUpdate?: boolean } = {}): Promise<T | null> {
    const query = this.db
      .select({ data: cardSandboxObjects.data })
      .from(cardSandboxObjects)
      .where(and(eq(cardSandboxObjects.id, id), eq(cardSandboxObjects.object, object)));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row ? (row.data as T) : null;
  }

  async insert<T extends { id: string; object: string }>(data: T): Promise<void> {
    await this.db.insert(cardSandboxObjects).values({ id: data.id, object: data.object, data });
  }

  async update<T extends { id: string }>(data: T): Promise<void> {
    await this.db
      .update(cardSandboxObjects)
      .set({ data, updatedAt: new Date() })
      .where(eq(cardSandboxObjects.id, data.id));
  }

  async findAnswer(keyId: string): Promise<StoredAnswer | null> {
    return this.find<StoredAnswer>('idempotency_key', keyId);
  }

  /** False when another request stored an answer under the key first (the caller replays that one). */
  async saveAnswer(keyId: string, answer: StoredAnswer): Promise<boolean> {
    const rows = await this.db
      .insert(cardSandboxObjects)
      .values({ id: keyId, object: 'idempotency_key', data: answer })
      .onConflictDoNothing()
      .returning({ id: cardSandboxObjects.id });
    return rows.length > 0;
  }

  async recordEvent(event: { id: string; type: string; payload: string; createdAt: Date }): Promise<void> {
    await this.db.insert(cardSandboxEvents).values({ ...event, nextAttemptAt: event.createdAt });
  }

  /** Undelivered events due at `now`, oldest first. */
  async dueEvents(now: Date, limit: number): Promise<PendingEvent[]> {
    return this.db
      .select({
        id: cardSandboxEvents.id,
        type: cardSandboxEvents.type,
        payload: cardSandboxEvents.payload,
        attempts: cardSandboxEvents.attempts,
      })
      .from(cardSandboxEvents)
      .where(and(isNull(cardSandboxEvents.deliveredAt), lte(cardSandboxEvents.nextAttemptAt, now)))
      .orderBy(asc(cardSandboxEvents.createdAt), asc(cardSandboxEvents.id))
      .limit(limit);
  }

  /**
   * Takes a due event for one delivery attempt by moving its next attempt to `leaseUntil`; false
   * when another node's loop took it first (the row is no longer due once its update commits).
   */
  async claimEvent(id: string, now: Date, leaseUntil: Date): Promise<boolean> {
    const rows = await this.db
      .update(cardSandboxEvents)
      .set({ nextAttemptAt: leaseUntil })
      .where(
        and(
          eq(cardSandboxEvents.id, id),
          isNull(cardSandboxEvents.deliveredAt),
          lte(cardSandboxEvents.nextAttemptAt, now),
        ),
      )
      .returning({ id: cardSandboxEvents.id });
    return rows.length > 0;
  }

  async markDelivered(id: string, attempts: number, at: Date): Promise<void> {
    await this.db.update(cardSandboxEvents).set({ attempts, deliveredAt: at }).where(eq(cardSandboxEvents.id, id));
  }

  async scheduleRetry(id: string, attempts: number, nextAttemptAt: Date): Promise<void> {
    await this.db.update(cardSandboxEvents).set({ attempts, nextAttemptAt }).where(eq(cardSandboxEvents.id, id));
  }
}
