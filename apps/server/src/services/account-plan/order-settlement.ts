import type { Database, PaymentMethod } from '@connect/db';
import type { TRecordReceiptRequest } from '@connect/shared';
import type { EventBus } from '../../events/port.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, notFound, problem } from '../../lib/errors.ts';
import { AccountPlansRepository, type PlanRow } from '../../repositories/account-plans.ts';
import { AuditLogRepository, type AuditActor } from '../../repositories/audit-log.ts';
import type { QntPaymentsFace } from '../payment/index.ts';
import type { PlanLifecycle } from './lifecycle.ts';
import { formatCount, formatPounds, planLine } from './order-format.ts';
import { OrdersRepository, type OrderRow, type RatePlanRow } from './orders-repository.ts';
import { addMonths, periodMonths } from './transitions.ts';

/** How far in the future a receipt's date may be (clocks differ a little). */
const RECEIPT_CLOCK_SKEW_MS = 5 * 60_000;

export const planRef = (plan: RatePlanRow): PlanRow => ({
  id: plan.id,
  type: plan.type,
  tier: plan.tier,
  name: plan.name,
});

/**
 * Paying orders (OrderService's half that takes money; orders.ts places, shows and withdraws
 * them): a bank transfer staff record, a card payment, the QNT held for the account — each
 * recorded once as a `payments` row — and the order settled once they cover its total (`settle`:
 * the plan's period, the credits, the order and invoice PAID and `order.paid`, in one transaction).
 */
export class OrderSettlement {
  private readonly repo: OrdersRepository;

  constructor(
    db: Database,
    private readonly events: EventBus,
    private readonly lifecycle: PlanLifecycle,
    private readonly qnt: QntPaymentsFace | null,
  ) {
    this.repo = new OrdersRepository(db);
  }

  /**
   * A card intent that pays the order succeeded (the subscriber of `card.payment_succeeded`, in
   * its transaction): the payment is recorded once per intent and the order settled. Answers
   * false when the order cannot take it (withdrawn, paid by other means, or owing less than the
   * payment): the caller refunds.
   */
  async settleFromCard(
    tx: Database,
    payment: { accountId: string; orderId: string; intentId: string; amountGbpMinor: number },
    now = new Date(),
  ): Promise<boolean> {
    const repo = new OrdersRepository(tx);
    const order = await repo.lock(payment.orderId);
    if (!order || order.accountId !== payment.accountId) return false;
    const recordedFor = await repo.paymentOrderId('FIAT', payment.intentId);
    if (recordedFor) return recordedFor === order.id;
    if (order.status !== 'AWAITING_PAYMENT') return false;
    // A card payment pays what is still owed, never more: one made for more (part of the order
    // paid by transfer meanwhile) is not the order's to take, and is refunded (issue 27).
    if (payment.amountGbpMinor > order.totalGbpMinor - (await repo.view(order.id))!.paidGbpMinor) return false;
    const received = await repo.recordPayment({
      orderId: order.id,
      method: 'FIAT',
      externalId: payment.intentId,
      amountGbpMinor: payment.amountGbpMinor,
      receivedAt: now,
      recordedBy: null,
    });
    if (received >= order.totalGbpMinor) {
      await this.settle(repo, tx, order, { amountPaid: received, paidAt: now, paymentMethod: 'FIAT' });
    }
    return true;
  }

  /**
   * Staff record a bank transfer received for an order (`receiptId`: the bank's transaction id).
   * The same receipt again changes nothing. Once the receipts cover the total the order is paid.
   */
  async recordReceipt(staff: AuditActor & { id: string }, orderId: string, body: TRecordReceiptRequest): Promise<void> {
    const receivedAt = new Date(body.receivedAt);
    if (receivedAt.getTime() > Date.now() + RECEIPT_CLOCK_SKEW_MS) {
      throw badRequest([{ name: 'receivedAt', reason: 'A transfer cannot be received in the future.' }]);
    }
    await retryOnUnique(() =>
      this.repo.transaction(async (repo, tx) => {
        const order = await repo.lock(orderId);
        if (order && order.status === 'AWAITING_PAYMENT' && (await this.planIsDisabled(tx, order))) {
          // Its payment would put the plan in service (PLAN_PAID), which a disabled plan refuses.
          throw problem('ACCOUNT_PLAN_DISABLED');
        }
        if (!order) throw notFound('ORDER_NOT_FOUND');
        const recordedFor = await repo.paymentOrderId('BANK_TRANSFER', body.receiptId);
        if (recordedFor === order.id) return;
        if (recordedFor) {
          throw badRequest([{ name: 'receiptId', reason: 'This receipt is already recorded for another order.' }]);
        }
        if (order.status !== 'AWAITING_PAYMENT') throw problem('ORDER_NOT_PAYABLE');
        // More than the order still needs is refused (a typing slip, or an over-payment staff pay
        // back outside the portal): the receipts of an order then never add up past its total,
        // which the integer columns and sums of payments and invoices hold (issue 27 §3).
        const left = order.totalGbpMinor - (await repo.view(order.id))!.paidGbpMinor;
        if (body.amountGbpMinor > left) {
          throw badRequest([
            { name: 'amountGbpMinor', reason: `More than the ${formatPounds(left)} this order still needs.` },
          ]);
        }
        const received = await repo.recordPayment({
          orderId: order.id,
          method: 'BANK_TRANSFER',
          externalId: body.receiptId,
          amountGbpMinor: body.amountGbpMinor,
          receivedAt,
          recordedBy: staff.id,
        });
        await new AuditLogRepository(tx).record(staff, {
          action: 'RECEIPT_RECORDED',
          recordType: 'order',
          recordId: order.id,
          before: { status: order.status, paidGbpMinor: received - body.amountGbpMinor },
          after: {
            accountId: order.accountId,
            reference: order.reference,
            receiptId: body.receiptId,
            amountGbpMinor: body.amountGbpMinor,
            receivedAt: body.receivedAt,
            paidGbpMinor: received,
            status: received >= order.totalGbpMinor ? 'PAID' : order.status,
          },
        });
        if (received >= order.totalGbpMinor) {
          await this.settle(repo, tx, order, {
            amountPaid: received,
            paidAt: receivedAt,
            paymentMethod: 'BANK_TRANSFER',
          });
        } else {
          await this.events.emit(tx, 'order.payment_received', {
            accountId: order.accountId,
            orderId: order.id,
            reference: order.reference,
            amountGbpMinor: body.amountGbpMinor,
            leftGbpMinor: order.totalGbpMinor - received,
          });
        }
      }),
    );
  }

  /** Whether the order pays for a plan (PLAN, RENEWAL) of an account whose plan staff disabled. */
  private async planIsDisabled(tx: Database, order: { accountId: string; kind: string }): Promise<boolean> {
    if (order.kind !== 'PLAN' && order.kind !== 'RENEWAL') return false;
    return (await new AccountPlansRepository(tx, this.events).state(order.accountId))?.status === 'DISABLED';
  }

  /**
   * The account's QNT balance settles its open QNT orders, oldest first (the subscriber of
   * `qnt.transfer_confirmed`, in its transaction): an order whose amount due (less the tolerance)
   * is available is paid from it — a quote that ran out is quoted again at today's price first
   * (PAID_LATE) — and the first that cannot be paid stops the walk (PAID_PARTIAL), so a newer
   * order never takes QNT an older one waits for. What is left stays held for the customer.
   */
  async settleFromQnt(tx: Database, accountId: string, now = new Date()): Promise<void> {
    if (!this.qnt) return;
    const repo = new OrdersRepository(tx);
    for (const payment of await this.qnt.openPayments(tx, accountId)) {
      const order = await repo.lock(payment.orderId);
      if (order?.status !== 'AWAITING_PAYMENT') continue;
      const isLate = payment.expiresAt.getTime() <= now.getTime();
      // What is left to pay: a part may have come by transfer before the order was switched to QNT.
      const leftGbpMinor = Math.max(0, order.totalGbpMinor - (await repo.view(order.id))!.paidGbpMinor);
      const due = isLate ? await this.qnt.requote(tx, payment, leftGbpMinor) : payment.amountDue;
      const { available } = await repo.ledger.balance(accountId, 'QNT');
      if (available < this.qnt.enough(due)) {
        if (available > 0n) await this.qnt.markPartial(tx, payment);
        return;
      }
      const take = available < due ? available : due;
      const taken = await repo.ledger.consume(accountId, 'QNT', take, {
        reason: `Order ${order.reference} paid in QNT`,
        reference: `order:${order.id}:qnt${again(order)}`,
      });
      if (taken.outcome === 'insufficient') return;
      await repo.recordPayment({
        orderId: order.id,
        method: 'QNT',
        externalId: qntPaymentId(order),
        amountGbpMinor: leftGbpMinor,
        receivedAt: now,
        recordedBy: null,
      });
      await this.settle(repo, tx, order, { amountPaid: order.totalGbpMinor, paidAt: now, paymentMethod: 'QNT' });
      await this.qnt.markSettled(tx, payment, take, now, isLate);
    }
  }

  /**
   * The order paid in full, in the caller's transaction: a plan order makes the plan ACTIVE for
   * its months from the payment, a renewal for the period it was placed for; credits are bought;
   * the order and its invoice are PAID; `order.paid` is announced.
   */
  async settle(
    repo: OrdersRepository,
    tx: Database,
    order: OrderRow,
    { amountPaid, paidAt, paymentMethod }: { amountPaid: number; paidAt: Date; paymentMethod: PaymentMethod },
  ): Promise<void> {
    let periodStart = order.periodStart;
    let periodEnd = order.periodEnd;
    let feeLine: string | undefined;
    if (order.kind === 'USAGE') {
      const nextBillOrderId = await repo.oldestUnpaidBill(order.accountId, order.id);
      await this.lifecycle.apply(order.accountId, { type: 'BILL_PAID', orderId: order.id, nextBillOrderId }, { tx });
    } else if (order.kind !== 'CREDITS') {
      const plan = (await repo.ratePlan(order.ratePlanId!))!;
      if (order.kind === 'PLAN') {
        const months = periodMonths(planRef(plan), order.upfrontMonths);
        periodStart = paidAt;
        periodEnd = addMonths(paidAt, months);
        feeLine = planLine(plan.name, months, paidAt);
      }
      await this.lifecycle.apply(
        order.accountId,
        {
          type: 'PLAN_PAID',
          orderId: order.id,
          plan: planRef(plan),
          periodStart: periodStart!,
          periodEnd: periodEnd!,
          upfrontMonths: order.upfrontMonths,
          // What the order bought (issue 33 §3); one placed before terms were recorded: the lifecycle reads the tier.
          ...(order.terms ? { terms: order.terms } : {}),
        },
        { tx, paymentMethod },
      );
    }
    if (order.credits > 0) {
      await repo.ledger.purchase(order.accountId, 'CREDIT', BigInt(order.credits), {
        reason:
          order.kind === 'USAGE'
            ? `${formatCount(order.credits)} credits used on credit paid (order ${order.reference})`
            : `${formatCount(order.credits)} credits bought (order ${order.reference})`,
        reference: `order:${order.id}${again(order)}`,
      });
    }
    await repo.markPaid(order, { amountPaid, paidAt, periodStart, periodEnd, ...(feeLine ? { feeLine } : {}) });
    await this.events.emit(tx, 'order.paid', {
      accountId: order.accountId,
      orderId: order.id,
      reference: order.reference,
      kind: order.kind,
      totalGbpMinor: order.totalGbpMinor,
    });
  }
}

/**
 * The suffix of an order's payment references once its payment was undone (a chain took back the
 * QNT that paid it: qnt-reversals.ts): paying it again takes and buys again, under new references.
 */
export const again = (order: Pick<OrderRow, 'reversals'>) => (order.reversals ? `:${order.reversals}` : '');
/** The `payments` row of an order paid from the QNT held for the account. */
export const qntPaymentId = (order: Pick<OrderRow, 'id' | 'reversals'>) => `qnt:${order.id}${again(order)}`;

/**
 * Runs `work` again once when it failed on a unique index: a payment reference drawn twice (40
 * random bits), or the same receipt recorded for two orders at once; the second run sees why.
 */
export async function retryOnUnique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return work();
  }
}
