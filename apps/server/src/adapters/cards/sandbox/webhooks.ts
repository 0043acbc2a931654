import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { CardSandboxRepository } from './repository.ts';

/** Hands a signed event to the platform's webhook endpoint; answers the HTTP status. */
export type Deliver = (payload: string, signature: string) => Promise<number>;

/** Stripe's `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">`. */
export function stripeSignature(payload: string, secret: string, at: Date = new Date()): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** After the nth failed attempt, the next is due 1 s, 2 s, 4 s … later, at most a minute. */
export const retryDelayMs = (failedAttempts: number) => Math.min(1000 * 2 ** (failedAttempts - 1), 60_000);

/**
 * How long a claimed event is left to its delivery before another loop may take it (a node died
 * meanwhile): a delivery is one in-process request of a few milliseconds, and a dead node's event
 * goes out from a live one within half a minute (issue 31). Delivered twice, it is settled once.
 */
const LEASE_MS = 30_000;
const BATCH = 50;

export type WebhookDeliveryOptions = {
  deliver: Deliver;
  webhookSecret: string;
  log: FastifyBaseLogger;
  pollMs?: number;
  now?: () => Date;
};

/**
 * Delivers the sandbox's webhook events as Stripe does: at least once, signed at each attempt
 * (the signature's timestamp must be recent), retried with backoff while the endpoint fails. The
 * queue is the card_sandbox_events table, so what was not delivered before a restart is
 * delivered after it; events due together go out in the order they were recorded.
 */
export class WebhookDelivery {
  private timer: NodeJS.Timeout | undefined;
  private isStarted = false;
  /** The pass in progress (stop() waits for it, so nothing writes after the database closes). */
  private running: Promise<unknown> = Promise.resolve();
  private readonly now: () => Date;

  constructor(
    private readonly repo: CardSandboxRepository,
    private readonly options: WebhookDeliveryOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.isStarted = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = this.deliverDue()
        .catch((err: unknown) => this.options.log.error({ err }, 'card sandbox: webhook delivery pass failed'))
        .finally(() => {
          if (this.isStarted) this.schedule(this.options.pollMs ?? 500);
        });
    }, delayMs);
    this.timer.unref();
  }

  /** One pass over the events due now; answers how many were delivered. */
  async deliverDue(): Promise<number> {
    let delivered = 0;
    const now = this.now();
    for (const event of await this.repo.dueEvents(now, BATCH)) {
      if (!(await this.repo.claimEvent(event.id, now, new Date(now.getTime() + LEASE_MS)))) continue;
      const attempts = event.attempts + 1;
      let status: number | string;
      try {
        status = await this.options.deliver(
          event.payload,
          stripeSignature(event.payload, this.options.webhookSecret, this.now()),
        );
      } catch (error) {
        status = error instanceof Error ? error.message : String(error);
      }
      if (typeof status === 'number' && status >= 200 && status < 300) {
        await this.repo.markDelivered(event.id, attempts, this.now());
        delivered++;
        continue;
      }
      const retryAt = new Date(this.now().getTime() + retryDelayMs(attempts));
      await this.repo.scheduleRetry(event.id, attempts, retryAt);
      this.options.log.warn(
        { eventId: event.id, type: event.type, attempts, status, retryAt },
        'card sandbox: webhook delivery failed; it will be retried',
      );
    }
    return delivered;
  }
}
