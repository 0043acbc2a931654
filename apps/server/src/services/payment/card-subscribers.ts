import type { FastifyBaseLogger } from 'fastify';
import { CARD_MESSAGES } from '@connect/shared';
import type { Mailer } from '../../adapters/mail/port.ts';
import type { EventBus } from '../../events/port.ts';
import { formatDate, formatPounds } from '../../lib/formats.ts';
import type { Deps } from '../../types.ts';
import { CardRepository } from './card-repository.ts';
import { CardPayments } from './card-payments.ts';

/** Subscriber names: deliveries are recorded under them, so they never change. */
const CHARGE_SCHEDULE = 'payment.card-charge-schedule';
const CARD_MAILS = 'payment.card-mails';
const UNSETTLED_REFUNDS = 'payment.card-unsettled-refunds';

export type CardMail = { subject: string; text: string };

/** spec §8: 'Payment has failed', with the advice to check the details (and when we try again). */
export function chargeFailedMail(
  failure: { reference: string; amountGbpMinor: number; message: string; nextAttemptAt: string | null },
  publicUrl: string,
): CardMail {
  const next = failure.nextAttemptAt
    ? `We will try your card again on ${formatDate(failure.nextAttemptAt)}.`
    : 'We will not try your card again: please pay the bill in the portal to keep your plan active.';
  return {
    subject: `${CARD_MESSAGES.failed}: order ${failure.reference}`,
    text: [
      `${CARD_MESSAGES.failed}. We could not charge ${formatPounds(failure.amountGbpMinor)} for order ${failure.reference} to your saved card.`,
      '',
      `The card provider said: ${failure.message}`,
      '',
      `${CARD_MESSAGES.checkDetails} You can replace the card and pay now in My account: ${publicUrl}/my-account`,
      next,
    ].join('\n'),
  };
}

export function refundMail(refund: {
  reference: string;
  amountGbpMinor: number;
  method?: 'FIAT' | 'BANK_TRANSFER' | undefined;
}): CardMail {
  const byBank = refund.method === 'BANK_TRANSFER';
  return {
    subject: `Order ${refund.reference}: your refund`,
    text: [
      byBank
        ? `We have refunded ${formatPounds(refund.amountGbpMinor)} of order ${refund.reference} by bank transfer to the account it was paid from.`
        : `We have refunded ${formatPounds(refund.amountGbpMinor)} of order ${refund.reference} to the card it was paid with.`,
      byBank
        ? 'A credit note for the amount is issued against the order’s invoice. A transfer usually arrives within 1 to 3 working days.'
        : 'A credit note for the amount is issued against the order’s invoice. Refunds usually reach the card within 5 to 10 working days.',
    ].join('\n'),
  };
}

/**
 * Card payments' subscribers, registered on every node (module.ts): a renewal or a month's bill to
 * be paid by card goes on the charge schedule in the transaction of its `order.placed` delivery;
 * a payment its order could not take is refunded; a failed monthly charge and a refund are mailed
 * to the account (once per event and recipient).
 */
export function subscribeCardPayments(
  deps: Pick<Deps, 'db' | 'events' | 'cards' | 'config'>,
  events: EventBus,
  mailer: Mailer,
  log: FastifyBaseLogger,
): void {
  const cards = new CardPayments({ db: deps.db, events, gateway: deps.cards, log });
  const repo = new CardRepository(deps.db);
  events.subscribe(CHARGE_SCHEDULE, 'order.placed', async (event, tx) => {
    if (event.payload.paymentMethod === 'FIAT') await cards.scheduleCharge(tx, event.payload.orderId);
  });
  const mail = async (eventId: string, accountId: string, message: CardMail) => {
    for (const recipient of await repo.recipients(accountId)) {
      await mailer.send({
        to: recipient.email,
        kind: 'NOTIFICATION',
        ...message,
        dedupeKey: `event:${eventId}:${recipient.id}`,
      });
    }
  };
  events.subscribeEffect(UNSETTLED_REFUNDS, 'card.refund_due', (event) => cards.refundUnsettled(event.payload));
  events.subscribeEffect(CARD_MAILS, 'card.charge_failed', (event) =>
    mail(event.id, event.payload.accountId, chargeFailedMail(event.payload, deps.config.publicUrl)),
  );
  events.subscribeEffect(CARD_MAILS, 'card.refunded', (event) =>
    mail(event.id, event.payload.accountId, refundMail(event.payload)),
  );
}
