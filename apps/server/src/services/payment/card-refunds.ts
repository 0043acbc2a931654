import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { TCardRefundRequest, TCreditNote } from '@connect/shared';
import { CardRefusedError, type CardGateway } from '../../adapters/cards/port.ts';
import type { EventBus } from '../../events/port.ts';
import { fieldProblem, notFound, problem } from '../../lib/errors.ts';
import { CardRepository, REFUND_FAILED } from './card-repository.ts';

/**
 * Refunds of card payments (issue 16, hardened in issue 27; docs/decisions/payments.md "Card payments" and
 * "Card webhooks, refunds and intents"): staff refunds with their credit notes, and the automatic
 * refund of a payment its order could not take. Reached through CardPayments.
 */
export class CardRefunds {
  private readonly repo: CardRepository;

  constructor(
    private readonly deps: {
      db: Database;
      events: EventBus;
      gateway: CardGateway | null;
      log: FastifyBaseLogger;
      /** A provider call; its failure (other than a refusal handled here) is a 502 (CardPayments). */
      read: <T>(call: () => Promise<T>) => Promise<T>;
    },
  ) {
    this.repo = new CardRepository(deps.db);
  }

  private get gateway(): CardGateway {
    if (!this.deps.gateway) throw problem('CARD_PAYMENTS_UNAVAILABLE');
    return this.deps.gateway;
  }

  /**
   * A card payment the order could not take (withdrawn, paid by other means meanwhile, or of
   * another amount than it owes) is refunded in full, once (the subscriber of `card.refund_due`,
   * after the settlement's commit).
   */
  async refundUnsettled(payment: { accountId: string; orderId: string; intentId: string; amountGbpMinor: number }) {
    const refund = await this.gateway.refund(
      { paymentIntentId: payment.intentId, amount: payment.amountGbpMinor, metadata: { orderId: payment.orderId } },
      `unsettled:${payment.intentId}`,
    );
    await this.repo.insertRefund({
      orderId: payment.orderId,
      accountId: payment.accountId,
      idempotencyKey: `unsettled:${payment.intentId}`,
      externalId: refund.id,
      intentId: payment.intentId,
      amountGbpMinor: payment.amountGbpMinor,
      reason: 'The order could not take this card payment (no longer awaiting it, or of another amount).',
      status: refund.status,
    });
    this.deps.log.warn({ ...payment, refundId: refund.id }, 'card payment its order could not take: refunded');
  }

  /**
   * Staff refund (part of) an order paid by card: the provider refunds the order's card payments,
   * newest first, and a credit note is issued against the order's invoice. The staff's key makes a
   * repeated request answer the first refund.
   *
   * One refund decision at a time per order (issue 27): what can still be refunded is read, checked
   * and reserved (a pending row) in one transaction holding the order's row lock, so refunds fired
   * together never pass the limit. The provider is called after the commit (never inside a
   * transaction); a refund it refused is marked failed and counts nothing. One whose outcome is
   * unknown (a timeout) stays pending, still counted, until the same key is sent again.
   */
  async refund(staff: { id: string }, orderId: string, body: TCardRefundRequest): Promise<TCreditNote> {
    const order = await this.repo.order(orderId);
    if (!order) throw notFound('ORDER_NOT_FOUND');
    const row = await this.repo.transaction(async (repo) => {
      await repo.lockOrder(order.id);
      const earlier = await repo.refunds(order.id);
      const again = earlier.find((refund) => refund.idempotencyKey === body.idempotencyKey);
      if (again && again.status !== REFUND_FAILED) return again;
      // What paid the order by card (its `payments` rows): a payment refunded because the order
      // could not take it paid nothing, so it and its refund count neither way.
      const paid = await repo.cardPaymentsOf(order.id);
      if (paid.length === 0) throw fieldProblem('ORDER_HAS_NO_CARD_PAYMENT', 'orderId');
      const paidByCard = paid.reduce((sum, payment) => sum + payment.amountGbpMinor, 0);
      const intents = new Set(paid.map((payment) => payment.intentId));
      const refunded = earlier
        .filter((refund) => refund !== again && refund.status !== REFUND_FAILED && intents.has(refund.intentId))
        .reduce((sum, refund) => sum + refund.amountGbpMinor, 0);
      const left = Math.max(0, paidByCard - refunded);
      const amount = again?.amountGbpMinor ?? body.amountGbpMinor;
      if (amount > left) {
        throw problem('REFUND_TOO_LARGE', {
          detail: `At most £${(left / 100).toFixed(2)} of this order can be refunded.`,
        });
      }
      // The same key after a refusal: a new attempt, a row of its own (so a provider key of its
      // own: Stripe answers a key it refused with the same refusal for 24 hours). The refused
      // attempt stays as it was, failed, under its key marked as retired (issue 27 review).
      if (again) await repo.retireRefusedRefund(again);
      const made = await repo.insertRefund({
        orderId: order.id,
        accountId: order.accountId,
        idempotencyKey: body.idempotencyKey,
        intentId: again?.intentId ?? paid[0]!.intentId,
        amountGbpMinor: amount,
        reason: again?.reason ?? body.reason,
        status: 'pending',
        recordedBy: staff.id,
      });
      // Under the order's lock no other request records this key meanwhile.
      return made!;
    });
    const done = await this.repo.creditNoteOf(row.id);
    if (done) return creditNote(done, order.id, row.status);
    const result = await this.deps.read(async () => {
      try {
        return await this.gateway.refund(
          {
            paymentIntentId: row.intentId,
            amount: row.amountGbpMinor,
            metadata: { orderId: order.id, refundId: row.id },
          },
          // One key per attempt (a row each): the same attempt sent again after an unknown
          // outcome reuses it, so the provider refunds it once.
          `refund:${row.id}`,
        );
      } catch (error) {
        if (!(error instanceof CardRefusedError)) throw error;
        await this.repo.failRefund(row.id);
        this.deps.log.warn({ orderId: order.id, refundId: row.id, reason: error.message }, 'card refund refused');
        throw problem('CARD_PROVIDER_ERROR', { detail: `The card provider refused the refund: ${error.message}` });
      }
    });
    const invoice = await this.repo.invoiceOf(order.id);
    const note = await this.repo.transaction(async (repo, tx) => {
      await repo.completeRefund(row.id, result.id, result.status);
      const stored = await repo.insertCreditNote({
        accountId: order.accountId,
        invoiceId: invoice!.id,
        refundId: row.id,
        amountMinor: row.amountGbpMinor,
        reason: row.reason,
      });
      await this.deps.events.emit(tx, 'card.refunded', {
        accountId: order.accountId,
        orderId: order.id,
        reference: order.reference,
        amountGbpMinor: row.amountGbpMinor,
        creditNoteId: stored.id,
      });
      return stored;
    });
    return creditNote(note, order.id, result.status);
  }
}

function creditNote(
  note: { id: string; invoiceId: string; refundId: string; amountMinor: number; reason: string; issuedAt: Date },
  orderId: string,
  status: string,
): TCreditNote {
  return {
    id: note.id,
    invoiceId: note.invoiceId,
    orderId,
    refundId: note.refundId,
    amountGbpMinor: note.amountMinor,
    reason: note.reason,
    status,
    issuedAt: note.issuedAt.toISOString(),
  };
}
