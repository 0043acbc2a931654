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

/**
 * Counts gateway calls per application, network, JSON-RPC method and UTC hour in memory and adds
 * them to gateway_usage_hourly (and their price to the application's month spend) in one
 * statement per flush, so the database is not written on every request; each flush that wrote
 * counts is announced as one gateway.usage_counted event, in its transaction. Call flush() on
 * shutdown. Counts of an application deleted meanwhile are dropped; a flush that fails keeps its
 * counts for the next one (nothing of it was written).
 *
 * The price (METHOD_PRICES_MICRO of the method's class) is a function of the method alone, so it
 * is applied to the flush's sums rather than to every call: the same micro-credits, less work per
 * request.
 */
export class UsageRecorder {
  private pending = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  /** The UTC hour of the last record (ISO) and when it ends: formatting a date on every request costs. */
  private hour = '';
  private hourEndsMs = 0;

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
    }
    const key = `${applicationId}|${networkId}|${method}|${this.hour}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
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

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes what was counted so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  /** Writes what was counted, FLUSH_ROWS keys per statement at most. */
  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const all = [...this.pending];
    this.pending = new Map();
    for (let start = 0; start < all.length; start += FLUSH_ROWS)
      await this.writeRows(all.slice(start, start + FLUSH_ROWS));
  }

  private async writeRows(batch: [string, number][]): Promise<void> {
    const rows: UsageCount[] = batch.map(([key, calls]) => {
      const [applicationId, networkId, method, hour] = key.split('|') as [string, string, string, string];
      return {
        applicationId,
        networkId,
        method,
        hour,
        calls,
        microCredits: calls * METHOD_PRICES_MICRO[methodClass(method)],
      };
    });
    let capReached: string[];
    try {
      ({ capReached } = await this.repository.addUsage(rows, this.events));
    } catch (error) {
      // The transaction wrote nothing: count these again with the next flush.
      for (const [key, calls] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
      this.onError(error);
      return;
    }
    if (capReached.length) this.onCapReached(capReached);
  }
}
