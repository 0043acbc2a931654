import { randomBytes } from 'node:crypto';
import type { Database, OrderStatus, PaymentMethod } from '@connect/db';
import {
  PLAN_TERMS,
  type TCreditsOrderRequest,
  type TOrder,
  type TPaymentMethod,
  type TPlanOrderRequest,
  type TQntHolding,
  type TRecordReceiptRequest,
} from '@connect/shared';
import type { Config } from '../../config.ts';
import type { EventBus } from '../../events/port.ts';
import { fieldProblem, notFound, problem } from '../../lib/errors.ts';
import { usdCentsToPence } from '../../lib/prices.ts';
import type { QntPaymentsFace } from '../payment/index.ts';
import { invoiceTermsOf } from '../../repositories/invoice-customers.ts';
import { AccountPlansRepository, type PlanRow, type StoredPlanState } from '../../repositories/account-plans.ts';
import { termsOf } from '../../repositories/plan-terms.ts';
import { PlanLifecycle } from './lifecycle.ts';
import { bundleLine, checkMethod, line, upfrontOf } from './order-lines.ts';
import { OrderSettlement, planRef, retryOnUnique } from './order-settlement.ts';
import { planLine } from './order-format.ts';
import { OrdersRepository, type InvoiceLine, type OrderRow, type OrderView } from './orders-repository.ts';
import type { AuditActor } from '../../repositories/audit-log.ts';
import { addDays, addMonths, canOrder, isInService, periodMonths } from './transitions.ts';

export type BillingConfig = Config['billing'];
/** What an order's invoice needs of the invoices' configuration: the issuer's country and the VAT table. */
export type InvoiceTermsConfig = Pick<Config['invoices'], 'issuer' | 'vatRates'>;

/**
 * The payment methods this installation takes now: QNT when its token's chain is configured (the
 * payment service's follower confirms transfers), card (FIAT) when Stripe or the card sandbox is,
 * and bank transfer (staff record the receipt). GET /subscription answers the same list.
 */
export function availablePaymentMethods(
  qnt: Pick<QntPaymentsFace, 'isAvailable'> | null,
  cards: CardsFace | null = null,
): TPaymentMethod[] {
  return [
    ...(qnt?.isAvailable ? (['QNT'] as const) : []),
    ...(cards?.isAvailable ? (['FIAT'] as const) : []),
    'BANK_TRANSFER',
  ];
}

/** What orders need of card payments: whether this installation takes cards. */
export type CardsFace = { isAvailable: boolean };

/** Who places an order: a signed-in user of the account. */
export type Caller = { id: string; accountId: string };

/** Input of a renewal order (jobs: the period job, when a subscription's period ends). */
export type RenewalInput = {
  accountId: string;
  plan: PlanRow;
  periodStart: Date;
  periodEnd: Date;
  paymentMethod: PaymentMethod;
};

/** Crockford's base32: no I, L, O or U, so a reference read aloud or retyped is unambiguous. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A payment reference: `CNX-` and 8 random characters (40 bits; unique in the database). */
export function newOrderReference(): string {
  const bytes = randomBytes(8);
  let text = '';
  for (const byte of bytes) text += CROCKFORD[byte & 31];
  return `CNX-${text}`;
}

// Paying orders is OrderSettlement's (order-settlement.ts); these stay importable from here.
export { again, qntPaymentId } from './order-settlement.ts';

/**
 * Orders of the account-plan service (spec §2, §4, §7; docs/decisions/plans-and-orders.md "Orders and their prices"): a plan (with
 * its upfront months and a credit bundle), credits alone, or a renewal. Each order is placed once
 * per idempotency key, with its invoice and lines, and with the plan's change (ORDER_PLACED),
 * in one transaction; paying it (a receipt covering the total, or nothing to pay) makes the
 * plan ACTIVE for its period, buys its credits and announces `order.paid`, again in one.
 * This file places, shows and withdraws orders; taking their payments is OrderSettlement's
 * (order-settlement.ts), the checks and invoice lines of placing them are in order-lines.ts.
 */
export class OrderService {
  private readonly repo: OrdersRepository;
  private readonly lifecycle: PlanLifecycle;
  private readonly available: TPaymentMethod[];
  private readonly payments: OrderSettlement;

  constructor(
    db: Database,
    private readonly events: EventBus,
    private readonly billing: BillingConfig,
    /** QNT payments (the payment service's face); null where this node takes no QNT. */
    private readonly qnt: QntPaymentsFace | null = null,
    /** Card payments; null where this installation takes no cards. */
    cards: CardsFace | null = null,
    /** The issuer and VAT table an order's invoice is made with; null where this service only reads orders. */
    private readonly invoices: InvoiceTermsConfig | null = null,
  ) {
    this.repo = new OrdersRepository(db);
    this.lifecycle = new PlanLifecycle(db, events, { paygCreditLimit: billing.paygCreditLimit });
    this.available = availablePaymentMethods(qnt, cards);
    this.payments = new OrderSettlement(db, events, this.lifecycle, qnt);
  }

  /** POST /order/plan: the caller's order of a plan on sale; a repeated key answers the first order. */
  async placePlanOrder(caller: Caller, body: TPlanOrderRequest): Promise<TOrder> {
    const orderId = await retryOnUnique(() =>
      this.repo.transaction(async (repo, tx) => {
        const state = await this.lockPlan(tx, caller.accountId);
        const existing = await repo.findByKey(caller.accountId, body.idempotencyKey);
        if (existing) return existing.id;

        const plan = await repo.ratePlan(body.ratePlanId);
        if (!plan?.isActive || plan.type === 'TRIAL') throw notFound('RATE_PLAN_NOT_FOUND');
        const bundle = body.creditBundleId ? await repo.creditBundle(body.creditBundleId) : null;
        if (body.creditBundleId && bundle?.ratePlanId !== plan.id) throw notFound('CREDIT_BUNDLE_NOT_FOUND');
        const upfrontMonths = upfrontOf(plan, body.upfrontMonths ?? null);
        const months = periodMonths(planRef(plan), upfrontMonths);
        // The annual fee is for twelve months; an upfront period pays its own months of it.
        const fee = plan.type === 'SUBSCRIPTION' ? Math.round((plan.feeGbpMinor * months) / 12) : 0;
        const now = new Date();
        const prices = this.prices(fee, bundle?.priceUsdCents ?? 0, now);
        checkMethod(this.available, plan.paymentMethods, body.paymentMethod, prices.totalGbpMinor > 0);
        const refusal = canOrder(state, planRef(plan));
        if (refusal) throw problem(refusal);

        const lines: InvoiceLine[] = [line(planLine(plan.name, months, now), fee)];
        if (bundle) lines.push(bundleLine(bundle.credits, bundle.priceUsdCents, prices));
        const { order, issueInvoice } = await this.insert(repo, lines, {
          accountId: caller.accountId,
          userId: caller.id,
          idempotencyKey: body.idempotencyKey,
          kind: 'PLAN',
          ratePlanId: plan.id,
          // What the order buys, kept until its renewal whatever staff edit (issue 33 §3).
          terms: termsOf(plan),
          upfrontMonths,
          creditBundleId: bundle?.id ?? null,
          credits: bundle?.credits ?? 0,
          paymentMethod: body.paymentMethod,
          ...prices,
          // For the display until paid: a new plan's period starts when it is paid.
          periodStart: now,
          periodEnd: addMonths(now, months),
          dueAt: prices.totalGbpMinor > 0 ? addDays(now, PLAN_TERMS.bankTransferTermsDays) : now,
        });
        if (order.totalGbpMinor === 0) {
          // Pay as you go has no fee: the plan is active at once; its credits are billed at month end.
          // The settlement marks the invoice PAID, so it is issued first (nothing slow follows:
          // the plan's row is this transaction's already, the rest are the order's own rows).
          await issueInvoice();
          await this.payments.settle(repo, tx, order, {
            amountPaid: 0,
            paidAt: now,
            paymentMethod: body.paymentMethod,
          });
        } else {
          await this.quoteInQnt(tx, order);
          await this.lifecycle.apply(
            caller.accountId,
            { type: 'ORDER_PLACED', orderId: order.id, plan: planRef(plan) },
            { tx },
          );
          await this.announcePlaced(tx, order);
          await issueInvoice();
        }
        return order.id;
      }),
    );
    return this.answer(orderId);
  }

  /** POST /order/credits: a bundle of the caller's plan (in service), outside the upgrade journey. */
  async placeCreditsOrder(caller: Caller, body: TCreditsOrderRequest): Promise<TOrder> {
    const orderId = await retryOnUnique(() =>
      this.repo.transaction(async (repo, tx) => {
        const state = await this.lockPlan(tx, caller.accountId);
        const existing = await repo.findByKey(caller.accountId, body.idempotencyKey);
        if (existing) return existing.id;

        if (!isInService(state) || !(await repo.sellsBundles(state.plan.id))) throw problem('CREDITS_NOT_SOLD');
        const bundle = await repo.creditBundle(body.creditBundleId);
        if (bundle?.ratePlanId !== state.plan.id) throw notFound('CREDIT_BUNDLE_NOT_FOUND');
        const plan = (await repo.ratePlan(state.plan.id))!;
        const now = new Date();
        const prices = this.prices(0, bundle.priceUsdCents, now);
        checkMethod(this.available, plan.paymentMethods, body.paymentMethod, true);

        const { order, issueInvoice } = await this.insert(
          repo,
          [bundleLine(bundle.credits, bundle.priceUsdCents, prices)],
          {
            accountId: caller.accountId,
            userId: caller.id,
            idempotencyKey: body.idempotencyKey,
            kind: 'CREDITS',
            creditBundleId: bundle.id,
            credits: bundle.credits,
            paymentMethod: body.paymentMethod,
            ...prices,
            dueAt: addDays(now, PLAN_TERMS.bankTransferTermsDays),
          },
        );
        await this.quoteInQnt(tx, order);
        await this.announcePlaced(tx, order);
        await issueInvoice();
        return order.id;
      }),
    );
    return this.answer(orderId);
  }

  /**
   * The renewal order of a subscription whose period ends (the periods job, inside its
   * transaction): the plan's annual fee for `periodStart`–`periodEnd`, due when the grace days
   * end. Placed once per account and period: a repeated call answers the first order's id.
   */
  async placeRenewal(tx: Database, input: RenewalInput): Promise<string> {
    const repo = new OrdersRepository(tx);
    const key = `renewal:${input.accountId}:${input.periodStart.toISOString()}`;
    const existing = await repo.findByKey(input.accountId, key);
    if (existing) return existing.id;
    const plan = await repo.ratePlan(input.plan.id);
    if (!plan) throw notFound('RATE_PLAN_NOT_FOUND');
    const months = periodMonths(planRef(plan), null);
    const prices = this.prices(plan.feeGbpMinor, 0, new Date());
    const { order, issueInvoice } = await this.insert(
      repo,
      [line(planLine(plan.name, months, input.periodStart), plan.feeGbpMinor)],
      {
        accountId: input.accountId,
        userId: null,
        idempotencyKey: key,
        kind: 'RENEWAL',
        ratePlanId: plan.id,
        // A renewal takes the tier as it is now (issue 33 §3).
        terms: termsOf(plan),
        paymentMethod: input.paymentMethod,
        ...prices,
        periodStart: input.periodStart,
        periodEnd: input.periodEnd,
        dueAt: addDays(input.periodStart, PLAN_TERMS.renewalGraceDays),
      },
    );
    await this.quoteInQnt(tx, order);
    await this.announcePlaced(tx, order);
    await issueInvoice();
    return order.id;
  }

  /**
   * A card intent that pays the order succeeded (the subscriber of `card.payment_succeeded`, in
   * its transaction): see OrderSettlement. False when the order cannot take it: the caller refunds.
   */
  settleFromCard(
    tx: Database,
    payment: { accountId: string; orderId: string; intentId: string; amountGbpMinor: number },
    now = new Date(),
  ): Promise<boolean> {
    return this.payments.settleFromCard(tx, payment, now);
  }

  /** POST /order/track: the caller's own order (another account's id is as good as unknown). */
  async track(caller: Pick<Caller, 'accountId'>, orderId: string): Promise<TOrder> {
    const view = await this.repo.view(orderId, caller.accountId);
    if (!view) throw notFound('ORDER_NOT_FOUND');
    return this.present(view);
  }

  /** POST /order/:id/cancel: withdraws the caller's order while nothing of it is paid. */
  async cancel(caller: Pick<Caller, 'accountId'>, orderId: string): Promise<TOrder> {
    await this.repo.transaction(async (repo, tx) => {
      // The order first, then the plan: the receipt takes its locks in the same order.
      const order = await repo.lock(orderId);
      if (!order || order.accountId !== caller.accountId) throw notFound('ORDER_NOT_FOUND');
      if (order.status !== 'AWAITING_PAYMENT') throw problem('ORDER_NOT_PAYABLE');
      if (order.kind === 'USAGE') {
        throw problem('ORDER_NOT_CANCELLABLE');
      }
      const view = (await repo.view(order.id))!;
      if (view.paidGbpMinor > 0) {
        throw problem('ORDER_PARTLY_PAID');
      }
      const state = await this.lockPlan(tx, order.accountId);
      if (state.pendingOrderId === order.id) {
        await this.lifecycle.apply(order.accountId, { type: 'ORDER_CANCELLED', orderId: order.id }, { tx });
      }
      await repo.markCancelled(order.id, new Date());
      if (order.paymentMethod === 'QNT') await this.qnt?.invalidate(tx, order.id);
      await this.events.emit(tx, 'order.cancelled', {
        accountId: order.accountId,
        orderId: order.id,
        reference: order.reference,
      });
    });
    return this.answer(orderId);
  }

  /** Staff record a bank transfer received for an order (see OrderSettlement); answers the order. */
  /** Staff record a bank transfer received (audited as RECEIPT_RECORDED in the receipt's transaction). */
  async recordReceipt(
    staff: AuditActor & { id: string },
    orderId: string,
    body: TRecordReceiptRequest,
  ): Promise<TOrder> {
    await this.payments.recordReceipt(staff, orderId, body);
    return this.answer(orderId);
  }

  /** Staff: orders newest first, by status and by the reference a transfer quoted. */
  async list(filter: { status?: OrderStatus; reference?: string }): Promise<{ orders: TOrder[] }> {
    const views = await this.repo.list(filter, 500);
    return { orders: await Promise.all(views.map((view) => this.present(view))) };
  }

  /** The account's orders that wait for their payment, newest first (GET /subscription). */
  async openOrders(accountId: string): Promise<TOrder[]> {
    const views = await this.repo.list({ accountId, status: 'AWAITING_PAYMENT' }, 50);
    return Promise.all(views.map((view) => this.present(view)));
  }

  /** The account's order `orderId` as the API answers it, or null when it is not the account's (GET /subscription). */
  async order(accountId: string, orderId: string): Promise<TOrder | null> {
    const view = await this.repo.view(orderId, accountId);
    return view ? this.present(view) : null;
  }

  /** QNT held for the customer and their deposit address (GET /subscription), where QNT is taken. */
  async qntHolding(accountId: string): Promise<TQntHolding | undefined> {
    return this.qnt?.isAvailable ? this.qnt.holding(accountId) : undefined;
  }

  /** The payment methods taken now (GET /subscription). */
  availablePaymentMethods(): TPaymentMethod[] {
    return [...this.available];
  }

  toOrder(view: OrderView): TOrder {
    const isAwaitingTransfer = view.status === 'AWAITING_PAYMENT' && view.paymentMethod === 'BANK_TRANSFER';
    return {
      id: view.id,
      reference: view.reference,
      kind: view.kind,
      status: view.status,
      paymentMethod: view.paymentMethod,
      ratePlan: view.ratePlanId && view.ratePlanName ? { id: view.ratePlanId, name: view.ratePlanName } : null,
      upfrontMonths: view.upfrontMonths,
      bundle: view.creditBundleId
        ? { id: view.creditBundleId, credits: view.credits, priceUsdCents: view.bundleUsdCents }
        : null,
      feeGbpMinor: view.feeGbpMinor,
      bundleUsdCents: view.bundleUsdCents,
      usdPerGbp: view.usdPerGbp,
      rateAt: iso(view.rateAt),
      totalGbpMinor: view.totalGbpMinor,
      paidGbpMinor: view.paidGbpMinor,
      periodStart: view.periodStart ? iso(view.periodStart) : null,
      periodEnd: view.periodEnd ? iso(view.periodEnd) : null,
      dueAt: iso(view.dueAt),
      createdAt: iso(view.createdAt),
      paidAt: view.paidAt ? iso(view.paidAt) : null,
      invoiceId: view.invoiceId,
      bankTransfer: isAwaitingTransfer
        ? {
            ...this.billing.bank,
            reference: view.reference,
            // What is left to send: the total until a first part arrives.
            amountGbpMinor: Math.max(0, view.totalGbpMinor - view.paidGbpMinor),
            dueAt: iso(view.dueAt),
          }
        : null,
    };
  }

  /** The order with its QNT payment's state, live (an order paid in QNT). */
  async present(view: OrderView): Promise<TOrder> {
    const order = this.toOrder(view);
    if (view.paymentMethod !== 'QNT' || !this.qnt) return order;
    return { ...order, qnt: await this.qnt.view(view.id) };
  }

  private async answer(orderId: string): Promise<TOrder> {
    const view = await this.repo.view(orderId);
    if (!view) throw notFound('ORDER_NOT_FOUND');
    return this.present(view);
  }

  /** An order to pay in QNT gets its quote (the amount in QNT, its rate and time) in its transaction. */
  private async quoteInQnt(tx: Database, order: OrderRow): Promise<void> {
    if (order.paymentMethod !== 'QNT' || order.totalGbpMinor === 0) return;
    if (!this.qnt?.isAvailable) throw fieldProblem('PAYMENT_METHOD_NOT_ACCEPTED', 'paymentMethod');
    await this.qnt.quote(tx, order);
  }

  /** The account's QNT balance settles its open QNT orders, oldest first (see OrderSettlement). */
  settleFromQnt(tx: Database, accountId: string, now = new Date()): Promise<void> {
    return this.payments.settleFromQnt(tx, accountId, now);
  }

  /** The account's plan, locked for the transaction: orders of one account are placed one at a time. */
  private async lockPlan(tx: Database, accountId: string): Promise<StoredPlanState> {
    const state = await new AccountPlansRepository(tx, this.events).state(accountId, { lock: true });
    if (!state) throw notFound('ACCOUNT_NOT_FOUND');
    return state;
  }

  /** The prices frozen with an order: the bundle's dollars converted at today's rate. */
  private prices(feeGbpMinor: number, bundleUsdCents: number, now: Date) {
    const { usdPerGbp } = this.billing;
    return {
      feeGbpMinor,
      bundleUsdCents,
      usdPerGbp,
      rateAt: now,
      totalGbpMinor: feeGbpMinor + usdCentsToPence(bundleUsdCents, usdPerGbp),
    };
  }

  /**
   * Places the order (its row), answering it with `issueInvoice`, which numbers and writes its
   * invoice: callers run it last but for the order's events, after the quote and the plan's
   * change, so the INV counter (a platform-wide row lock, taken after the plan's lock as the
   * month's close takes it after the plans') is held only until the commit. A repeated key
   * answers the first order, whose invoice exists: `issueInvoice` then does nothing.
   */
  private async insert(
    repo: OrdersRepository,
    lines: InvoiceLine[],
    order: Omit<Parameters<OrdersRepository['insert']>[0], 'reference'>,
  ): Promise<{ order: OrderRow; issueInvoice: () => Promise<void> }> {
    // Placed when its prices were read (the database's now() is the transaction's start).
    const placedAt = order.rateAt as Date;
    if (!this.invoices) throw new Error('OrderService: placing an order needs the invoices configuration');
    // The customer and VAT of the invoice, once per order, in its transaction (decisions 2–3).
    const terms = (await invoiceTermsOf(repo.db, [order.accountId], this.invoices)).get(order.accountId);
    if (!terms) throw notFound('ACCOUNT_NOT_FOUND');
    const inserted = await repo.insert({ ...order, createdAt: placedAt, reference: newOrderReference() });
    if (!inserted) {
      // The plan row is locked, so no other order with this key can be in flight; should one be
      // (a caller without the lock), its order is the answer.
      return { order: (await repo.findByKey(order.accountId, order.idempotencyKey))!, issueInvoice: async () => {} };
    }
    return { order: inserted, issueInvoice: () => repo.issueInvoice(inserted, lines, terms) };
  }

  private async announcePlaced(tx: Database, order: OrderRow): Promise<void> {
    await this.events.emit(tx, 'order.placed', {
      accountId: order.accountId,
      userId: order.userId,
      orderId: order.id,
      reference: order.reference,
      paymentMethod: order.paymentMethod,
    });
  }
}

const iso = (value: Date | string) => new Date(value).toISOString();
