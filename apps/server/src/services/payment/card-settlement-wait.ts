import type { Database } from '@connect/db';
import { liveHubOf } from '../connect/index.ts';

/** How long a card confirmation waits for its order to be settled by the bus (ms). */
export const SETTLE_WAIT_MS = 5_000;

/** The events that take an order out of AWAITING_PAYMENT (what a waiting confirmation wakes on). */
const SETTLING_EVENTS = new Set(['order.paid', 'order.cancelled']);

/**
 * Waits until the order no longer awaits payment (the account-plan service settles it from the
 * `card.payment_succeeded` the confirmation recorded), at most `ms`; the caller then answers what
 * is known. No polling inside the request: the account's change stream (connect's live hub, which
 * every node hears at the commit of the order's event, through LISTEN on PostgreSQL) wakes it on
 * the order's `order.paid` or `order.cancelled`, or on a resync (changes may have been missed).
 * `status` is read once, after listening, for an order settled before the stream was heard.
 */
export async function waitForSettlement(
  db: Database,
  order: { accountId: string; orderId: string },
  status: () => Promise<string | undefined>,
  ms: number = SETTLE_WAIT_MS,
): Promise<void> {
  let wake = () => {};
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const stop = await liveHubOf(db).subscribe(order.accountId, (change) => {
    if (change.type === 'resync' || (change.orderId === order.orderId && SETTLING_EVENTS.has(change.type))) wake();
  });
  const bound = setTimeout(wake, ms);
  try {
    if ((await status()) !== 'AWAITING_PAYMENT') return;
    await woken;
  } finally {
    clearTimeout(bound);
    stop();
  }
}
