import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { TCardRefundRequest, TCreditNote } from '@connect/shared';
import { CardRefusedError, type CardGateway } from '../../adapters/cards/port.ts';
import type { EventBus } from '../../events/port.ts';
import { badRequest, fieldProblem, notFound, problem } from '../../lib/errors.ts';
import { CardRepository, REFUND_FAILED } from './card-repository.ts';
import { AuditLogRepository, type AuditActor } from '../../repositories/audit-log.ts';

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
   *
   * Audited as an outside call (ORDER_REFUNDED): an INTENT committed with the reservation, then
   * SUCCEEDED with the credit note or FAILED with the refusal; a pending refund completed by a
   * later request (its intent in an earlier one) is one DONE entry with its credit note.
   */
  async refund(staff: AuditActor & { id: string }, orderId: string, body: TCardRefundRequest): Promise<TCreditNote> {
    const order = await this.repo.order(orderId);
    if (!order) throw notFound('ORDER_NOT_FOUND');
    const reserved = await this.repo.transaction(async (repo, tx) => {
      await repo.lockOrder(order.id);
      const earlier = await repo.refunds(order.id);
      const again = earlier.find((refund) => refund.idempotencyKey === body.idempotencyKey);
      if (again && again.status !== REFUND_FAILED) return { row: again, intent: null, bank: false as const };
      // What paid the order by card (its `payments` rows): a payment refunded because the order
      // could not take it paid nothing, so it and its refund count neither way.
      const paid = await repo.cardPaymentsOf(order.id);
      if (paid.length === 0) return { bank: true as const };
      const paidByCard = paid.reduce((sum, payment) => sum + payment.amountGbpMinor, 0);
      const intents = new Set(paid.map((payment) => payment.intentId));
      const refunded = earlier
        .filter(
          (refund) =>
            refund !== again &&
            refund.status !== REFUND_FAILED &&
            refund.intentId !== null &&
            intents.has(refund.intentId),
        )
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
      const intent = await new AuditLogRepository(tx).intent(staff, {
        action: 'ORDER_REFUNDED',
        recordType: 'order',
        recordId: order.id,
        before: { refundedGbpMinor: refunded, refundableGbpMinor: left },
        after: { accountId: order.accountId, refundId: made!.id, amountGbpMinor: amount, reason: made!.reason },
      });
      // Under the order's lock no other request records this key meanwhile.
      return { row: made!, intent, bank: false as const };
    });
    if (reserved.bank) return this.refundByBank(staff, order, body);
    const { row, intent } = reserved;
    const done = await this.repo.creditNoteOf(row.id);
    if (done) return creditNote(done, order.id, row.status);
    // A card refund's row names the card payment it refunds (only bank refunds have none).
    const intentId = row.intentId;
    if (intentId === null) throw new Error(`card refund ${row.id} has no card payment`);
    const result = await this.deps.read(async () => {
      try {
        return await this.gateway.refund(
          {
            paymentIntentId: intentId,
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
        if (intent)
          await new AuditLogRepository(this.deps.db).outcome(staff, intent, { ok: false, detail: error.message });
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
      const after = {
        accountId: order.accountId,
        refundId: row.id,
        amountGbpMinor: row.amountGbpMinor,
        creditNoteId: stored.id,
      };
      const audit = new AuditLogRepository(tx);
      if (intent) await audit.outcome(staff, intent, { ok: true, after });
      else await audit.record(staff, { action: 'ORDER_REFUNDED', recordType: 'order', recordId: order.id, after });
      return stored;
    });
    return creditNote(note, order.id, result.status);
  }

  /**
   * An order paid by bank transfer is paid back by a transfer staff make outside the portal; this
   * records it (`bankReference`, required) with its credit note, audited, in one transaction under
   * the order's row lock: nothing is called outside, so refunds fired together never pass what the
   * transfers paid, and the staff's key answers the first refund again.
   */
  private async refundByBank(
    staff: AuditActor & { id: string },
    order: { id: string; accountId: string; reference: string },
    body: TCardRefundRequest,
  ): Promise<TCreditNote> {
    return this.repo.transaction(async (repo, tx) => {
      await repo.lockOrder(order.id);
      const earlier = await repo.refunds(order.id);
      const again = earlier.find((refund) => refund.idempotencyKey === body.idempotencyKey);
      if (again) return creditNote((await repo.creditNoteOf(again.id))!, order.id, again.status);
      const paid = await repo.bankPaidOf(order.id);
      if (paid === 0) throw fieldProblem('ORDER_HAS_NO_CARD_PAYMENT', 'orderId');
      // A part-paid order still waits for the rest: refunding a receipt would let it settle short.
      if ((await repo.order(order.id))?.status !== 'PAID') throw problem('ORDER_NOT_PAID');
      const bankReference = body.bankReference;
      if (!bankReference) {
        throw badRequest([
          { name: 'bankReference', reason: 'Give the reference of the bank transfer that paid the money back.' },
        ]);
      }
      const refunded = earlier
        .filter((refund) => refund.method === 'BANK_TRANSFER' && refund.status !== REFUND_FAILED)
        .reduce((sum, refund) => sum + refund.amountGbpMinor, 0);
      const left = Math.max(0, paid - refunded);
      if (body.amountGbpMinor > left) {
        throw problem('REFUND_TOO_LARGE', {
          detail: `At most £${(left / 100).toFixed(2)} of this order can be refunded.`,
        });
      }
      const made = await repo.insertRefund({
        orderId: order.id,
        accountId: order.accountId,
        idempotencyKey: body.idempotencyKey,
        method: 'BANK_TRANSFER',
        externalId: `bank:${bankReference}`,
        intentId: null,
        amountGbpMinor: body.amountGbpMinor,
        reason: body.reason,
        status: 'succeeded',
        recordedBy: staff.id,
      });
      if (!made) {
        throw badRequest([{ name: 'bankReference', reason: 'This transfer is already recorded as a refund.' }]);
      }
      const invoice = await repo.invoiceOf(order.id);
      const note = await repo.insertCreditNote({
        accountId: order.accountId,
        invoiceId: invoice!.id,
        refundId: made.id,
        amountMinor: made.amountGbpMinor,
        reason: made.reason,
      });
      await this.deps.events.emit(tx, 'card.refunded', {
        accountId: order.accountId,
        orderId: order.id,
        reference: order.reference,
        amountGbpMinor: made.amountGbpMinor,
        creditNoteId: note.id,
        method: 'BANK_TRANSFER',
      });
      await new AuditLogRepository(tx).record(staff, {
        action: 'ORDER_REFUNDED',
        recordType: 'order',
        recordId: order.id,
        before: { refundedGbpMinor: refunded, refundableGbpMinor: left },
        after: {
          accountId: order.accountId,
          refundId: made.id,
          method: 'BANK_TRANSFER',
          bankReference,
          amountGbpMinor: made.amountGbpMinor,
          creditNoteId: note.id,
        },
      });
      return creditNote(note, order.id, made.status);
    });
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
