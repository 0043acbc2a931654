import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbHandle, Listener } from '@connect/db';
import { LIVE_CHANNEL, notifyLive } from './live-repository.ts';

/**
 * What changed in an account, as the open pages are told (GET /api/connect/live): the domain
 * event's type and the ids a page may show. `resync`: changes may have been missed (the node's
 * LISTEN connection was replaced), so everything shown is to be read again.
 */
export type LiveChange = {
  type: string;
  orderId?: string;
  invoiceId?: string;
  tokenId?: string;
};

type Receiver = (change: LiveChange) => void;

/**
 * The node's fan-out of account changes to its open streams: one LISTEN per node (on PostgreSQL,
 * opened with the first stream), whatever the number of streams; each notification goes to the
 * streams of its account only.
 *
 * A change is published inside a transaction (`publish`): `pg_notify` reaches every node's hub
 * at the commit. PGlite has one process and no LISTEN: the hub hands the change to its streams
 * itself. One hub per database of the process (`liveHubOf`), so the routes and the subscribers of
 * an app, and two apps on one PGlite database, share it.
 */
export class LiveHub {
  private readonly receivers = new Map<string, Set<Receiver>>();
  private handle: Pick<DbHandle, 'kind' | 'listen'> | undefined;
  private log: FastifyBaseLogger | undefined;
  private listener: Promise<Listener | undefined> | undefined;

  /** The node's database handle: on PostgreSQL the hub listens through it. */
  attach(handle: Pick<DbHandle, 'kind' | 'listen'>, log: FastifyBaseLogger): void {
    this.handle ??= handle;
    this.log ??= log;
  }

  /** True when changes come through PostgreSQL's LISTEN (every node hears every commit). */
  private get isNotified(): boolean {
    return this.handle?.kind === 'postgres';
  }

  /**
   * Starts giving `accountId`'s changes to `receive`; answers once the node hears them (its
   * LISTEN is open) with the function that stops.
   */
  async subscribe(accountId: string, receive: Receiver): Promise<() => void> {
    let set = this.receivers.get(accountId);
    if (!set) this.receivers.set(accountId, (set = new Set()));
    set.add(receive);
    const stop = () => {
      set.delete(receive);
      if (set.size === 0 && this.receivers.get(accountId) === set) this.receivers.delete(accountId);
    };
    await this.listen();
    return stop;
  }

  /** How many streams this node holds (tests, logs). */
  get size(): number {
    let total = 0;
    for (const set of this.receivers.values()) total += set.size;
    return total;
  }

  /**
   * Tells the account's open pages of `change`, from inside the transaction `db` (a subscriber's
   * delivery): on PostgreSQL at its commit, on every node; on PGlite at once, on this node.
   */
  async publish(db: Database, accountId: string, change: LiveChange): Promise<void> {
    await notifyLive(db, JSON.stringify({ accountId, change }));
    if (!this.isNotified) this.deliver(accountId, change);
  }

  /** Closes the node's LISTEN (the database closes it anyway). */
  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await (await listener)?.close();
  }

  private listen(): Promise<Listener | undefined> {
    if (!this.isNotified) return Promise.resolve(undefined);
    this.listener ??= this.handle!.listen(
      LIVE_CHANNEL,
      (payload) => this.heard(payload),
      (err) => this.log?.warn({ err }, 'live changes: LISTEN connection failed; reconnecting'),
    ).catch((err: unknown) => {
      this.log?.error({ err }, 'live changes: cannot LISTEN; pages fall back to their polls');
      this.listener = undefined;
      return undefined;
    });
    return this.listener;
  }

  /** A notification: to its account's streams; none (a new connection): everyone reads again. */
  private heard(payload: string | undefined): void {
    if (payload === undefined) {
      for (const [accountId] of this.receivers) this.deliver(accountId, { type: 'resync' });
      return;
    }
    try {
      const { accountId, change } = JSON.parse(payload) as { accountId: string; change: LiveChange };
      this.deliver(accountId, change);
    } catch (err) {
      this.log?.warn({ err }, 'live changes: unreadable notification ignored');
    }
  }

  private deliver(accountId: string, change: LiveChange): void {
    for (const receive of this.receivers.get(accountId) ?? []) receive(change);
  }
}

const hubs = new WeakMap<Database, LiveHub>();

/** The hub of the database `db` in this process (created on first use). */
export function liveHubOf(db: Database): LiveHub {
  let hub = hubs.get(db);
  if (!hub) hubs.set(db, (hub = new LiveHub()));
  return hub;
}
