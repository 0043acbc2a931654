import type { EventBus } from '../../events/port.ts';
import type { GatewayRepository, UsageCount } from './repository.ts';

/** How often counted requests are written to application_usage_daily. */
export const USAGE_FLUSH_MS = 1_000;

/**
 * Counts gateway requests per application, network and UTC day in memory and adds them to
 * application_usage_daily in one statement per flush, so the database is not written on every
 * request; each flush that wrote counts is announced as one gateway.usage_counted event, in its
 * transaction. Call flush() on shutdown. Counts of an application deleted meanwhile are dropped;
 * a flush that fails keeps its counts for the next one (nothing of it was written).
 */
export class UsageRecorder {
  private pending = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();
  /** The UTC day of the last record and when it ends: formatting a date on every request costs. */
  private day = '';
  private dayEndsMs = 0;

  constructor(
    private readonly repository: Pick<GatewayRepository, 'addUsage'>,
    private readonly events: EventBus,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  record(applicationId: string, networkId: string, requests: number, nowMs = Date.now()): void {
    if (nowMs >= this.dayEndsMs || nowMs < this.dayEndsMs - 86_400_000) {
      this.day = new Date(nowMs).toISOString().slice(0, 10);
      this.dayEndsMs = Date.parse(`${this.day}T00:00:00.000Z`) + 86_400_000;
    }
    const key = `${applicationId}|${networkId}|${this.day}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + requests);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Writes what was counted so far; concurrent calls run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    const rows: UsageCount[] = [...batch].map(([key, requests]) => {
      const [applicationId, networkId, day] = key.split('|') as [string, string, string];
      return { applicationId, networkId, day, requests };
    });
    try {
      await this.repository.addUsage(rows, this.events);
    } catch (error) {
      // The transaction wrote nothing: count these again with the next flush.
      for (const [key, requests] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + requests);
      this.onError(error);
    }
  }
}
