import { METHOD_PRICES_MICRO, methodClass } from '@connect/shared';
import type { EventBus } from '../../events/port.ts';
import type { GatewayRepository, UsageCount } from './repository.ts';

/** How often counted calls are written to gateway_usage_hourly. */
export const USAGE_FLUSH_MS = 1_000;
/**
 * Keys (application, network, method, hour) one statement writes at most: six bind parameters
 * each, well under PostgreSQL's 65,535 per statement; a busier second is written in parts.
 */
export const FLUSH_ROWS = 5_000;

const HOUR_MS = 3_600_000;

/** Calls per method, per network, per application, per UTC hour (ISO): the counts of one flush. */
type Counts = Map<string, HourCounts>;
type HourCounts = Map<string, Map<string, Map<string, number>>>;

/**
 * Counts gateway calls per application, network, JSON-RPC method and UTC hour in memory and adds
 * them to gateway_usage_hourly (and their price to the application's month spend) in one
 * statement per flush, so the database is not written on every request; each flush that wrote
 * counts is announced as one gateway.usage_counted event, in its transaction. A flush runs every
 * USAGE_FLUSH_MS (the gateway's timer) and as soon as FLUSH_ROWS keys are waiting, so a busy
 * second is written in parts of at most one statement each. Call flush() on shutdown. Counts of an
 * application deleted meanwhile are dropped; a flush that fails keeps its counts for the next one
 * (nothing of it was written).
 *
 * Counting a call allocates nothing once its key has been counted in the hour: nested maps
 * (hour, application, network, method) rather than a key string made on every call (the string
 * and its hashing were about 3 % of a shared answer's CPU, bench/gateway.ts).
 *
 * The price (METHOD_PRICES_MICRO of the method's class) is a function of the method alone, so it
 * is applied to the flush's sums rather than to every call: the same micro-credits, less work per
 * request.
 */
export class UsageRecorder {
  private pending: Counts = new Map();
  /** Keys (application, network, method, hour) waiting to be written. */
  private keys = 0;
  /** A flush for the threshold is on its way (or the last one failed: the timer's retries it). */
  private isFlushQueued = false;
  private flushing: Promise<void> = Promise.resolve();
  /** The UTC hour of the last record (ISO), when it ends, and its counts: formatting a date on every request costs. */
  private hour = '';
  private hourEndsMs = 0;
  private hourCounts: HourCounts = new Map();

  constructor(
    private readonly repository: Pick<GatewayRepository, 'addUsage'>,
    private readonly events: EventBus,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** Told the applications a flush took to their monthly cap (the gateway then reads their route again). */
    private readonly onCapReached: (applicationIds: string[]) => void = () => undefined,
  ) {}

  /** Counts `calls` calls of one method. */
  record(applicationId: string, networkId: string, method: string, calls: number, nowMs = Date.now()): void {
    if (nowMs >= this.hourEndsMs || nowMs < this.hourEndsMs - HOUR_MS) {
      const startMs = nowMs - (nowMs % HOUR_MS);
      this.hour = new Date(startMs).toISOString();
      this.hourEndsMs = startMs + HOUR_MS;
      this.hourCounts = this.countsOf(this.hour);
    }
    this.add(this.hourCounts, applicationId, networkId, method, calls);
  }

  /** The counts of an hour in the pending flush (made when it has none yet). */
  private countsOf(hour: string): HourCounts {
    let counts = this.pending.get(hour);
    if (!counts) {
      counts = new Map();
      this.pending.set(hour, counts);
    }
    return counts;
  }

  private add(hourCounts: HourCounts, applicationId: string, networkId: string, method: string, calls: number): void {
    let networks = hourCounts.get(applicationId);
    if (!networks) {
      networks = new Map();
      hourCounts.set(applicationId, networks);
    }
    let methods = networks.get(networkId);
    if (!methods) {
      methods = new Map();
      networks.set(networkId, methods);
    }
    const counted = methods.get(method);
    if (counted !== undefined) {
      methods.set(method, counted + calls);
      return;
    }
    methods.set(method, calls);
    // The size threshold: a flush as soon as a statement's worth of keys is waiting.
    if (++this.keys >= FLUSH_ROWS && !this.isFlushQueued) {
      this.isFlushQueued = true;
      void this.flush();
    }
  }

  /**
   * Counts the calls of a request the gateway forwarded or answered: one call, or each call of a
   * batch (JSON-RPC objects with a string `method`, as countCalls and screenCalls checked).
   */
  recordCalls(applicationId: string, networkId: string, body: unknown, nowMs = Date.now()): void {
    if (!Array.isArray(body)) {
      this.record(applicationId, networkId, (body as { method: string }).method, 1, nowMs);
      return;
    }
    for (const call of body) this.record(applicationId, networkId, (call as { method: string }).method, 1, nowMs);
  }

  /** Keys (application, network, method, hour) counted and not written yet. */
  get pendingCount(): number {
    return this.keys;
  }

  /** Writes what was counted so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Writes what was counted, FLUSH_ROWS keys per statement at most. */
  private async write(): Promise<void> {
    this.isFlushQueued = false;
    if (!this.keys) return;
    const rows: UsageCount[] = [];
    for (const [hour, applications] of this.pending)
      for (const [applicationId, networks] of applications)
        for (const [networkId, methods] of networks)
          for (const [method, calls] of methods)
            rows.push({
              applicationId,
              networkId,
              method,
              hour,
              calls,
              microCredits: calls * METHOD_PRICES_MICRO[methodClass(method)],
            });
    this.pending = new Map();
    this.keys = 0;
    this.hourEndsMs = 0; // the next record starts the hour's counts again
    for (let start = 0; start < rows.length; start += FLUSH_ROWS)
      await this.writeRows(rows.slice(start, start + FLUSH_ROWS));
  }

  private async writeRows(rows: UsageCount[]): Promise<void> {
    let capReached: string[];
    try {
      ({ capReached } = await this.repository.addUsage(rows, this.events));
    } catch (error) {
      // The transaction wrote nothing: count these again with the next flush.
      // Not at once when they reach the threshold: the next flush is the timer's.
      this.isFlushQueued = true;
      for (const row of rows)
        this.add(this.countsOf(row.hour), row.applicationId, row.networkId, row.method, row.calls);
      this.onError(error);
      return;
    }
    if (capReached.length) this.onCapReached(capReached);
  }
}
