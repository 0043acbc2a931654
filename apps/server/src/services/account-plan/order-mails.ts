import type { Database } from '@connect/db';
import type { TOrder, TQntPayment } from '@connect/shared';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { DomainEvent } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { formatCount, formatDate, formatPounds, formatQnt, formatTime } from './order-format.ts';
import { OrdersRepository } from './orders-repository.ts';
import type { QntPaymentsFace } from '../payment/index.ts';
import { OrderService, type BillingConfig } from './orders.ts';

/** The subscriber's name: deliveries are recorded under it, so it never changes. */
export const ORDER_MAIL_SUBSCRIBER = 'account-plan.order-mails';

export type OrderMail = { subject: string; text: string };

/** What an order buys, in words: 'Annual Subscription — Standard with 1,000 credits'. */
function purchase(order: TOrder): string {
  const credits = order.bundle ? `${formatCount(order.bundle.credits)} credits` : null;
  if (order.kind === 'RENEWAL') return `the renewal of ${order.ratePlan?.name ?? 'your plan'}`;
  if (order.kind === 'USAGE') return `the credits used on ${order.ratePlan?.name ?? 'your plan'}`;
  if (order.ratePlan) return credits ? `${order.ratePlan.name} with ${credits}` : order.ratePlan.name;
  return credits ?? 'credits';
}

/**
 * The bank transfer's instructions, mailed when an order awaiting a bank transfer is placed
 * (a plan, credits, or a renewal). Null for any other order: nothing to send.
 */
export function orderPlacedMail(order: TOrder): OrderMail | null {
  if (order.qnt && order.status === 'AWAITING_PAYMENT') return qntPlacedMail(order, order.qnt);
  const bank = order.bankTransfer;
  if (!bank) return null;
  const amount = formatPounds(bank.amountGbpMinor);
  const waiting =
    order.kind === 'PLAN'
      ? 'Your new plan stays pending until the transfer arrives; we email you as soon as it is active.'
      : order.kind === 'RENEWAL'
        ? `Your plan stays active until ${formatDate(bank.dueAt)} while the transfer is on its way; we email you when it arrives.`
        : 'The credits are added to your account when the transfer arrives; we email you then.';
  return {
    subject: `Order ${order.reference}: bank transfer details`,
    text: [
      `Thank you for your order of ${purchase(order)}.`,
      '',
      `Please send ${amount} by bank transfer by ${formatDate(bank.dueAt)} to:`,
      '',
      `Account name: ${bank.accountName}`,
      `Bank: ${bank.bankName}`,
      `Sort code: ${bank.sortCode}`,
      `Account number: ${bank.accountNumber}`,
      `IBAN: ${bank.iban}`,
      `BIC: ${bank.bic}`,
      `Reference: ${bank.reference}`,
      '',
      'Quote the reference exactly as above, so that we can match your payment to your order.',
      waiting,
    ].join('\n'),
  };
}

/**
 * Where to send QNT, mailed when an order to pay in QNT is placed: a customer paying from an
 * exchange or another wallet needs the address and the exact amount, not the portal's button.
 */
function qntPlacedMail(order: TOrder, qnt: TQntPayment): OrderMail {
  return {
    subject: `Order ${order.reference}: your QNT payment`,
    text: [
      `Thank you for your order of ${purchase(order)}.`,
      '',
      `Please send ${formatQnt(qnt.amountDue)} (${formatPounds(order.totalGbpMinor)} at £${qnt.gbpPerQnt} a QNT) to your deposit address on ${qnt.networkName}:`,
      '',
      qnt.depositAddress,
      '',
      `QNT token contract: ${qnt.tokenAddress}`,
      `This price holds until ${formatDate(qnt.expiresAt)} ${formatTime(qnt.expiresAt)}; a payment after that is settled at the price of the day it arrives.`,
      'The address is yours for good: anything you send to it is credited to your account, and anything beyond what an order needs is held for you as QNT.',
      'We email you as soon as the payment has its confirmations.',
    ].join('\n'),
  };
}

/** The confirmation mailed when an order is paid: what it bought and from when. */
export function orderPaidMail(order: TOrder): OrderMail {
  const received = order.qnt?.status === 'SETTLED' ? `your payment of ${formatQnt(order.qnt.paid)}` : null;
  const paid =
    order.totalGbpMinor > 0
      ? `We received ${received ?? formatPounds(order.paidGbpMinor)} for order ${order.reference}.`
      : null;
  const lines: string[] = paid ? [paid] : [`Thank you for your order ${order.reference}.`];
  if (order.kind === 'USAGE') {
    const period =
      order.periodStart && order.periodEnd
        ? ` from ${formatDate(order.periodStart)} to ${formatDate(order.periodEnd)}`
        : '';
    return {
      subject: `Order ${order.reference}: your monthly bill is paid`,
      text: [...lines, `This pays your bill for the credits used${period}. Thank you.`].join('\n'),
    };
  }
  if (order.ratePlan && order.periodStart && order.periodEnd) {
    const verb = order.kind === 'RENEWAL' ? 'is renewed' : 'is active';
    lines.push(
      `Your plan ${order.ratePlan.name} ${verb} from ${formatDate(order.periodStart)} until ${formatDate(order.periodEnd)}.`,
    );
    if (order.totalGbpMinor === 0) lines.push('The credits you use are billed at the end of each month.');
  }
  if (order.bundle) lines.push(`${formatCount(order.bundle.credits)} credits were added to your account.`);
  return {
    subject:
      order.kind === 'CREDITS'
        ? `Order ${order.reference}: your credits are added`
        : `Order ${order.reference}: your plan is active`,
    text: lines.join('\n'),
  };
}

/**
 * Emails of orders from their events: the bank transfer's instructions on `order.placed`, the
 * confirmation on `order.paid`, to the user who placed the order (else every active member of
 * the account), keyed by the event and the recipient so a redelivered event mails nothing.
 * Registered with the other subscribers in app.ts, on every node (an event nobody on the node
 * subscribes to is written delivered).
 */
export function subscribeOrderMails(
  events: EventBus,
  deps: { db: Database; mailer: Mailer; billing: BillingConfig; qnt?: QntPaymentsFace | null },
): void {
  const repo = new OrdersRepository(deps.db);
  const orders = new OrderService(deps.db, events, deps.billing, deps.qnt ?? null);
  const send = async (
    event: DomainEvent<'order.placed' | 'order.paid'>,
    mailOf: (order: TOrder) => OrderMail | null,
  ) => {
    const view = await repo.view(event.payload.orderId);
    if (!view) return; // the account was deleted since
    const mail = mailOf(await orders.present(view));
    if (!mail) return;
    for (const recipient of await repo.recipients(view.accountId, view.userId)) {
      await deps.mailer.send({
        to: recipient.email,
        kind: 'NOTIFICATION',
        ...mail,
        dedupeKey: `event:${event.id}:${recipient.id}`,
      });
    }
  };
  events.subscribeEffect(ORDER_MAIL_SUBSCRIBER, 'order.placed', (event) => send(event, orderPlacedMail));
  events.subscribeEffect(ORDER_MAIL_SUBSCRIBER, 'order.paid', (event) => send(event, orderPaidMail));
}
