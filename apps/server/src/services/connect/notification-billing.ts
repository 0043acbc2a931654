import { CARD_MESSAGES } from '@connect/shared';
import type { DomainEvent, DomainEvents } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { formatCount, formatDate, formatPounds } from '../../lib/formats.ts';
import { invoicePage } from './invoice-mails.ts';
import { NotificationRepository } from './notifications-repository.ts';

/*
 * The bell's notices of the billing events (issue 28): what reaches the customer by email — an
 * order awaiting its transfer, an order or invoice paid (credits added), a transfer that paid part
 * of an order, a month's invoice, a receipt, a failed card charge, a refund — is in the bell too.
 * Bell only: each already has its email. One notice per member (or the member the event names)
 * and event, so a redelivery writes nothing.
 */

/** The subscriber's name: deliveries are recorded under it, so it never changes. */
export const BILLING_NOTICE_SUBSCRIBER = 'connect.billing-notices';

/** The portal's plan and orders page (apps/web/src/config/paths.ts). */
const ACCOUNT_PAGE = '/my-account';

export type BillingNotice = { kind: string; title: string; body: string; link: string };

type OrderFacts = NonNullable<Awaited<ReturnType<NotificationRepository['orderFacts']>>>;

/** An order placed that waits for a transfer the customer makes (bank or QNT); null for any other. */
export function orderPlacedNotice(placed: DomainEvents['order.placed'], order: OrderFacts): BillingNotice | null {
  // A renewal and a month's bill have their own notices (plan.changed, invoice.finalised); a card
  // order is paid on the spot; a free one is paid when placed.
  if (order.kind !== 'PLAN' && order.kind !== 'CREDITS') return null;
  if (order.status !== 'AWAITING_PAYMENT' || order.totalGbpMinor === 0) return null;
  const amount = formatPounds(order.totalGbpMinor);
  const how =
    order.paymentMethod === 'BANK_TRANSFER'
      ? `Please send ${amount} by bank transfer by ${formatDate(order.dueAt)}, quoting ${placed.reference}. The bank details are in our email and on My account.`
      : order.paymentMethod === 'QNT'
        ? `Please send the QNT for ${amount} to your deposit address: the amount and the address are in our email and on My account.`
        : null;
  if (!how) return null;
  return {
    kind: 'order.placed',
    title: `Order ${placed.reference} awaits your payment`,
    body: how,
    link: ACCOUNT_PAGE,
  };
}

/** An order paid in full: its invoice paid, and the credits it bought added. Null for a free order. */
export function orderPaidNotice(paid: DomainEvents['order.paid'], order: OrderFacts): BillingNotice | null {
  if (paid.totalGbpMinor === 0) return null;
  const invoice = order.invoiceNumber ? ` (invoice ${order.invoiceNumber})` : '';
  const credits =
    order.credits > 0 && paid.kind !== 'USAGE'
      ? ` ${formatCount(order.credits)} credits were added to your account.`
      : '';
  return {
    kind: 'order.paid',
    title:
      paid.kind === 'CREDITS'
        ? 'Credits added'
        : order.invoiceNumber
          ? `Invoice ${order.invoiceNumber} is paid`
          : `Order ${paid.reference} is paid`,
    body: `We received ${formatPounds(paid.totalGbpMinor)} for order ${paid.reference}${invoice}.${credits}`,
    link: order.invoiceId ? invoicePage(order.invoiceId) : ACCOUNT_PAGE,
  };
}

/** A bank transfer that paid part of an order. */
export function paymentReceivedNotice(received: DomainEvents['order.payment_received']): BillingNotice {
  return {
    kind: 'order.payment_received',
    title: `Payment received for order ${received.reference}`,
    body: `We received ${formatPounds(received.amountGbpMinor)} by bank transfer for order ${received.reference}. ${formatPounds(received.leftGbpMinor)} is still due.`,
    link: ACCOUNT_PAGE,
  };
}

export function invoiceFinalisedNotice(invoice: DomainEvents['invoice.finalised']): BillingNotice {
  const amount = formatPounds(invoice.totalGbpMinor);
  return {
    kind: 'invoice.finalised',
    title: `Invoice ${invoice.number}: ${amount} due`,
    body: `Your invoice ${invoice.number} for last month’s use is ready: ${amount}, due by ${formatDate(invoice.dueAt)}.`,
    link: invoicePage(invoice.invoiceId),
  };
}

export function receiptNotice(receipt: DomainEvents['invoice.receipt_created']): BillingNotice {
  return {
    kind: 'invoice.receipt_created',
    title: `Receipt ${receipt.number} is ready`,
    body: `Your receipt ${receipt.number} is on the invoice’s page, to download as a PDF. We emailed it too.`,
    link: invoicePage(receipt.invoiceId),
  };
}

export function chargeFailedNotice(failure: DomainEvents['card.charge_failed']): BillingNotice {
  const next = failure.nextAttemptAt
    ? `We will try your card again on ${formatDate(failure.nextAttemptAt)}.`
    : 'We will not try your card again: please pay the bill on My account to keep your plan active.';
  return {
    kind: 'card.charge_failed',
    title: CARD_MESSAGES.failed,
    body: `We could not charge ${formatPounds(failure.amountGbpMinor)} for order ${failure.reference} to your saved card. ${next}`,
    link: ACCOUNT_PAGE,
  };
}

export function refundNotice(refund: DomainEvents['card.refunded']): BillingNotice {
  return {
    kind: 'card.refunded',
    title: `Refund of ${formatPounds(refund.amountGbpMinor)}`,
    body: `We refunded ${formatPounds(refund.amountGbpMinor)} of order ${refund.reference} ${refund.method === 'BANK_TRANSFER' ? 'by bank transfer' : 'to the card it was paid with'}. A credit note is issued against its invoice.`,
    link: ACCOUNT_PAGE,
  };
}

/** Writes the notice to the named member while in the account, else to every member. */
async function addNotice(
  repo: NotificationRepository,
  event: DomainEvent,
  accountId: string,
  userId: string | null,
  notice: BillingNotice | null,
): Promise<void> {
  if (!notice) return;
  const members = await repo.members(accountId);
  const named = userId ? members.filter((member) => member.id === userId) : [];
  await repo.add(
    (named.length ? named : members).map((member) => ({
      userId: member.id,
      accountId,
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
      link: notice.link,
      eventId: event.id,
    })),
  );
}

/** The billing notices' subscribers (every node; registered with the other notifications). */
export function subscribeBillingNotices(events: EventBus): void {
  const name = BILLING_NOTICE_SUBSCRIBER;
  events.subscribe(name, 'order.placed', async (event, tx) => {
    const repo = new NotificationRepository(tx);
    const order = await repo.orderFacts(event.payload.orderId);
    if (!order) return;
    const notice = orderPlacedNotice(event.payload, order);
    await addNotice(repo, event, event.payload.accountId, event.payload.userId, notice);
  });
  events.subscribe(name, 'order.paid', async (event, tx) => {
    const repo = new NotificationRepository(tx);
    const order = await repo.orderFacts(event.payload.orderId);
    if (!order) return;
    await addNotice(repo, event, event.payload.accountId, null, orderPaidNotice(event.payload, order));
  });
  events.subscribe(name, 'order.payment_received', async (event, tx) => {
    const notice = paymentReceivedNotice(event.payload);
    await addNotice(new NotificationRepository(tx), event, event.payload.accountId, null, notice);
  });
  events.subscribe(name, 'invoice.finalised', async (event, tx) => {
    const notice = invoiceFinalisedNotice(event.payload);
    await addNotice(new NotificationRepository(tx), event, event.payload.accountId, null, notice);
  });
  events.subscribe(name, 'invoice.receipt_created', async (event, tx) => {
    const notice = receiptNotice(event.payload);
    await addNotice(new NotificationRepository(tx), event, event.payload.accountId, event.payload.userId, notice);
  });
  events.subscribe(name, 'card.charge_failed', async (event, tx) => {
    const notice = chargeFailedNotice(event.payload);
    await addNotice(new NotificationRepository(tx), event, event.payload.accountId, null, notice);
  });
  events.subscribe(name, 'card.refunded', async (event, tx) => {
    const notice = refundNotice(event.payload);
    await addNotice(new NotificationRepository(tx), event, event.payload.accountId, null, notice);
  });
}
