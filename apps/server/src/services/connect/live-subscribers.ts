import type { Database } from '@connect/db';
import type { DomainEvents, EventType } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { liveHubOf, type LiveChange } from './live-hub.ts';

/** The subscriber's name: deliveries are recorded under it, so it never changes. */
export const LIVE_SUBSCRIBER = 'connect.live';

type Ids = Omit<LiveChange, 'type'>;

/**
 * The events an open page is told of (GET /api/connect/live), with the ids it may show: what
 * changes an account's orders, invoices, plan, credits, deployments and identity without the
 * page's own action. What the caller does from the page (an application registered, a network
 * activated) the page refreshes itself; `gateway.usage_counted` (every second) is left to the
 * usage page's own reads.
 */
const LIVE: { [K in EventType]?: (payload: DomainEvents[K]) => Ids } = {
  'order.placed': ({ orderId }) => ({ orderId }),
  'order.paid': ({ orderId }) => ({ orderId }),
  'order.payment_received': ({ orderId }) => ({ orderId }),
  'order.cancelled': ({ orderId }) => ({ orderId }),
  'plan.changed': ({ orderId }) => (orderId ? { orderId } : {}),
  'invoice.finalised': ({ invoiceId, orderId }) => ({ invoiceId, orderId }),
  'invoice.receipt_created': ({ invoiceId }) => ({ invoiceId }),
  'card.charge_failed': ({ orderId }) => ({ orderId }),
  'card.refunded': ({ orderId }) => ({ orderId }),
  'qnt.transfer_seen': () => ({}),
  'qnt.transfer_confirmed': () => ({}),
  'qnt.transfer_reversed': () => ({}),
  'token.deployed': ({ tokenId }) => ({ tokenId }),
  'token.failed': ({ tokenId }) => ({ tokenId }),
  'usage.charged': () => ({}),
  'usage.cap_crossed': () => ({}),
  'identity.verified': () => ({}),
  'network.review_decided': () => ({}),
};

/** The event types pushed to the open pages. */
export const LIVE_EVENT_TYPES = Object.keys(LIVE) as EventType[];

/**
 * Pushes each of those events to its account's open pages, in the delivery's transaction (so on
 * PostgreSQL every node hears it at the commit). Registered after the bell's subscribers, so the
 * bell's notice of the event is written when the page reads the bell again.
 */
export function subscribeLiveChanges(events: EventBus, db: Database): void {
  const hub = liveHubOf(db);
  for (const type of LIVE_EVENT_TYPES) {
    const idsOf = LIVE[type] as (payload: unknown) => Ids;
    events.subscribe(LIVE_SUBSCRIBER, type, async (event, tx) => {
      const accountId = (event.payload as { accountId?: string }).accountId ?? event.accountId;
      if (!accountId) return;
      await hub.publish(tx, accountId, { type, ...idsOf(event.payload) });
    });
  }
}
