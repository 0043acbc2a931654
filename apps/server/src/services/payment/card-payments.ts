import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type {
  TCardConfirmation,
  TCardConfirmRequest,
  TCardIntent,
  TCardOrderRequest,
  TCardRefundRequest,
  TCardStatus,
  TCreditNote,
} from '@connect/shared';
import { CARD_MESSAGES } from '@connect/shared';
import type { CardGateway, PaymentIntentView, SetupIntentView } from '../../adapters/cards/port.ts';
import { CardKeyInUseError, CardSignatureError } from '../../adapters/cards/port.ts';
import type { EventBus } from '../../events/port.ts';
import { fieldProblem, notFound, problem, ProblemError } from '../../lib/errors.ts';
import type { AuditActor } from '../../repositories/audit-log.ts';
import { CardRefunds } from './card-refunds.ts';
import { waitForSettlement } from './card-settlement-wait.ts';
import { CardRepository, type CardIntentRow, type PayableOrder } from './card-repository.ts';

/** Who asks: a signed-in user of the account. */
type Caller = { id: string; accountId: string; email: string };

/**
 * When a failed monthly charge is tried again: days after each failure (Stripe's Smart Retries
 * spread about four attempts over the grace weeks). Four attempts in all: on the day, then after
 * 1, 3 and 5 more days — all within the 14 grace days, after which the plan turns INACTIVE.
 */
export const CHARGE_RETRY_DAYS = [1, 3, 5] as const;
/** Charges one run of the job takes, and how long they are its own (a charge takes seconds). */
const CHARGE_BATCH = 50;
const CHARGE_LEASE_MS = 10 * 60_000;

const DAY_MS = 86_400_000;
/**
 * How long a provider call answered "key in use" waits before it is sent again, each time (ms):
 * requests sharing a key (steps of one checkout, Pay now presses) get the first one's result once
 * it is done, instead of a 502 (issue 27 review). About 4 s in all, after the SDK's own retries.
 */
const KEY_IN_USE_WAITS_MS = [250, 500, 1_000, 2_000] as const;

/**
 * Card payments (issue 16; docs/decisions/payments.md "Card payments"). The provider is the source of
 * truth: an intent's outcome is read from it (its webhook, or a retrieve when the customer comes
 * back or the job looks again), stored in `card_intents`, and the first time an intent that pays
 * an order is seen succeeded, `card.payment_succeeded` is emitted in the same transaction — the
 * account-plan service settles the order from it, once (`payments` is unique per intent).
 */
export class CardPayments {
  private readonly repo: CardRepository;
  private readonly refunds: CardRefunds;

  constructor(
    private readonly deps: { db: Database; events: EventBus; gateway: CardGateway | null; log: FastifyBaseLogger },
  ) {
    this.repo = new CardRepository(deps.db);
    this.refunds = new CardRefunds({ ...deps, read: (call) => this.read(call) });
  }

  get isAvailable(): boolean {
    return this.deps.gateway !== null;
  }

  private get gateway(): CardGateway {
    if (!this.deps.gateway) throw problem('CARD_PAYMENTS_UNAVAILABLE');
    return this.deps.gateway;
  }

  private provider() {
    const gateway = this.gateway;
    return { mode: gateway.mode, publishableKey: gateway.publishableKey };
  }

  /** POST /card/order: the intent that pays the caller's order (or keeps the card, when nothing is due now). */
  async orderIntent(caller: Caller, body: TCardOrderRequest): Promise<TCardIntent> {
    const order = await this.callersOrder(caller, body.orderId);
    if (order.paymentMethod !== 'FIAT') throw fieldProblem('PAYMENT_METHOD_NOT_ACCEPTED', 'orderId');
    const due = order.totalGbpMinor - order.paidGbpMinor;
    if (order.status === 'PAID' && order.totalGbpMinor === 0) {
      // Pay as you go: nothing to pay now; the card is kept for the month-end bills.
      return this.setupIntent(caller, order.id);
    }
    if (order.status !== 'AWAITING_PAYMENT' || due <= 0) throw problem('ORDER_NOT_PAYABLE');
    const customer = await this.customerFor(caller);
    // One open intent per order, whatever the concurrency: the open intent and the next key are
    // decided from ONE read of the order's intents. Steps that read before an intent is recorded
    // all send the same key, so the provider answers them its one intent (the row is unique per
    // intent); a step that reads after it answers that intent. Counting separately let a step
    // see no open intent, then count the new one and make a second (issue 27).
    const intents = await this.repo.intentsOf(order.id, 'PAYMENT');
    const [open] = intents;
    // The open intent of this checkout again (a reload of the payment step), while it can still be paid.
    if (open && open.purpose === 'CHECKOUT' && open.amountGbpMinor === due && isOpen(open.status)) {
      const current = await this.read(() => this.gateway.retrievePaymentIntent(open.intentId));
      if (isOpen(current.status)) return this.answerIntent(open, current.status);
    }
    const attempt = intents.filter((row) => row.purpose === 'CHECKOUT').length;
    const saveCard = body.saveCard ?? order.kind !== 'CREDITS';
    const intent = await this.read(() =>
      this.gateway.createPaymentIntent(
        {
          amount: due,
          currency: 'gbp',
          customerId: customer.customerId,
          description: `Order ${order.reference}`,
          metadata: { orderId: order.id, accountId: order.accountId, reference: order.reference },
          saveCard,
        },
        `order:${order.id}:checkout:${attempt}`,
      ),
    );
    const row = await this.repo.insertIntent({
      accountId: caller.accountId,
      orderId: order.id,
      intentId: intent.id,
      kind: 'PAYMENT',
      purpose: 'CHECKOUT',
      status: intent.status,
      clientSecret: intent.clientSecret,
      amountGbpMinor: due,
      saveCard,
      createdBy: caller.id,
    });
    return this.answerIntent(row, intent.status);
  }

  /** POST /card/setup: a SetupIntent to save or replace the card monthly charges use. */
  async setupIntent(caller: Caller, orderId: string | null = null): Promise<TCardIntent> {
    const customer = await this.customerFor(caller);
    const attempt = await this.repo.countIntents(caller.accountId, 'SAVE_CARD', null);
    const intent = await this.read(() =>
      this.gateway.createSetupIntent(
        { customerId: customer.customerId, metadata: { accountId: caller.accountId, ...(orderId ? { orderId } : {}) } },
        `account:${caller.accountId}:save-card:${attempt}`,
      ),
    );
    const row = await this.repo.insertIntent({
      accountId: caller.accountId,
      orderId,
      intentId: intent.id,
      kind: 'SETUP',
      purpose: 'SAVE_CARD',
      status: intent.status,
      clientSecret: intent.clientSecret,
      saveCard: true,
      createdBy: caller.id,
    });
    return this.answerIntent(row, intent.status);
  }

  /**
   * POST /card/confirm: back from the card form. The outcome is read from the provider, never from
   * the browser; when it paid an order, the answer waits (briefly) until the order is settled.
   */
  async confirm(caller: Pick<Caller, 'accountId'>, body: TCardConfirmRequest): Promise<TCardConfirmation> {
    const intentId = (body.paymentIntent ?? body.setupIntent)!;
    const row = await this.repo.intent(intentId);
    if (!row || row.accountId !== caller.accountId) throw notFound('CARD_INTENT_NOT_FOUND');
    const view =
      row.kind === 'PAYMENT'
        ? await this.read(() => this.gateway.retrievePaymentIntent(intentId))
        : await this.read(() => this.gateway.retrieveSetupIntent(intentId));
    await this.record(row, view);
    if (row.kind === 'PAYMENT' && row.orderId && view.status === 'succeeded')
      await this.waitForSettlement(row.accountId, row.orderId);
    return this.confirmation(row, view);
  }

  /** POST /initiate/{id}: charges the saved card now for the caller's order that waits (a failed monthly charge's "Pay now"). */
  async initiate(caller: Caller, orderId: string): Promise<TCardConfirmation> {
    const order = await this.callersOrder(caller, orderId);
    if (order.status !== 'AWAITING_PAYMENT') throw problem('ORDER_NOT_PAYABLE');
    // Presses at once charge once (issue 27; a key of the time made one charge per press): the key
    // counts the order's charges so far, read once, so presses before the first charge is recorded
    // send the same key and the provider answers them its one charge; a press after a decline
    // (recorded) charges again under the next key.
    const charges = (await this.repo.intentsOf(order.id, 'PAYMENT')).filter((row) => row.purpose === 'MONTHLY');
    const { row, view } = await this.chargeSaved(order, 'MONTHLY', `order:${order.id}:initiate:${charges.length}`);
    if (view.status === 'succeeded') await this.waitForSettlement(order.accountId, order.id);
    const charge = await this.repo.charge(order.id);
    if (charge && view.status !== 'succeeded') {
      await this.repo.updateCharge(order.id, { ...charge, lastError: failureText(view) });
    }
    return this.confirmation(row, view);
  }

  /** GET /card/status. */
  async status(caller: Pick<Caller, 'accountId'>): Promise<TCardStatus> {
    if (!this.isAvailable) return { available: false, provider: null, card: null, failedCharge: null };
    const customer = await this.repo.customer(caller.accountId);
    const failed = await this.repo.failedCharge(caller.accountId);
    return {
      available: true,
      provider: this.provider(),
      card: savedCard(customer),
      failedCharge: failed
        ? {
            orderId: failed.charge.orderId,
            reference: failed.order.reference,
            amountGbpMinor: failed.order.totalGbpMinor,
            attempts: failed.charge.attempts,
            nextAttemptAt: failed.charge.nextAttemptAt?.toISOString() ?? null,
            message: failed.charge.lastError ?? CARD_MESSAGES.failed,
          }
        : null,
    };
  }

  /** POST /card/webhook: a verified event from the provider (at least once; each handled once). */
  async handleWebhook(rawBody: string, signature: string | undefined): Promise<{ received: true }> {
    let event;
    try {
      event = this.gateway.parseWebhook(rawBody, signature);
    } catch (error) {
      if (error instanceof CardSignatureError) throw problem('CARD_WEBHOOK_INVALID');
      throw error;
    }
    if (event.object === 'other') return { received: true };
    const intentId = event.object === 'payment_intent' ? event.paymentIntent.id : event.setupIntent.id;
    const row = await this.repo.intent(intentId);
    if (!row) {
      this.deps.log.warn({ intentId, type: event.type }, 'card webhook for an intent this platform did not create');
      return { received: true };
    }
    // A webhook is a hint to look: its status and amount are never trusted, the intent is read
    // from the provider (issue 27: a signed "succeeded" for 1p once settled an order).
    const view =
      row.kind === 'PAYMENT'
        ? await this.read(() => this.gateway.retrievePaymentIntent(intentId))
        : await this.read(() => this.gateway.retrieveSetupIntent(intentId));
    await this.record(row, view, event.id, event.type);
    return { received: true };
  }

  /**
   * The provider's answer (always read from the provider, never from a request) stored; the first
   * time a paying intent is seen succeeded, the order's settlement is announced in the same
   * transaction, and a card to keep is saved. A payment of another amount or currency than the
   * intent was made for is not the order's to take: it is refunded instead.
   */
  private async record(
    row: CardIntentRow,
    view: PaymentIntentView | SetupIntentView,
    eventId?: string,
    eventType?: string,
  ): Promise<void> {
    // The card is read from the provider only when this answer may be the first success seen.
    const isNew = view.status === 'succeeded' && (await this.repo.intent(row.intentId))?.status !== 'succeeded';
    const card =
      isNew && row.saveCard && view.paymentMethodId
        ? await this.read(() => this.gateway.retrievePaymentMethod(view.paymentMethodId!))
        : null;
    await this.repo.transaction(async (repo, tx) => {
      if (eventId && !(await repo.markEvent(eventId, eventType ?? 'event'))) return;
      const failure = view.lastError
        ? { code: view.lastError.declineCode ?? view.lastError.code, message: view.lastError.message }
        : null;
      const turned = await repo.setStatus(row.intentId, view.status, failure);
      if (!turned) return;
      if (card) await repo.saveCard(row.accountId, card);
      if (row.kind === 'PAYMENT' && row.orderId) {
        const paid = view as PaymentIntentView;
        const payment = {
          accountId: row.accountId,
          orderId: row.orderId,
          intentId: row.intentId,
          amountGbpMinor: paid.amount,
        };
        const isAsked = paid.amount === row.amountGbpMinor && paid.currency === 'gbp';
        await this.deps.events.emit(tx, isAsked ? 'card.payment_succeeded' : 'card.refund_due', payment);
      }
    });
  }

  /**
   * The monthly charges due (card-charges-job.ts): each order on the schedule is charged on the
   * saved card, off-session, with a key per attempt (a retried run charges once). A decline is
   * recorded with the next attempt (CHARGE_RETRY_DAYS) and announced (`card.charge_failed`: the
   * email); a success settles the order through `card.payment_succeeded`.
   */
  async chargeDue(now = new Date()): Promise<{ charged: number; failed: number }> {
    let charged = 0;
    let failed = 0;
    const due = await this.repo.claimDueCharges(now, CHARGE_BATCH, CHARGE_LEASE_MS);
    for (const charge of due) {
      const order = await this.repo.order(charge.orderId);
      // Paid or withdrawn meanwhile, or switched to QNT since the claim: off the schedule.
      if (!order || order.status !== 'AWAITING_PAYMENT' || order.paymentMethod !== 'FIAT') {
        await this.repo.updateCharge(charge.orderId, { ...charge, nextAttemptAt: null });
        continue;
      }
      const attempt = charge.attempts + 1;
      let view: PaymentIntentView | null = null;
      let message: string;
      try {
        view = (await this.chargeSaved(order, 'MONTHLY', `order:${order.id}:monthly:${attempt}`)).view;
        message = failureText(view);
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        message = error.message;
      }
      if (view?.status === 'succeeded') {
        await this.repo.updateCharge(order.id, { attempts: attempt, nextAttemptAt: null, lastError: null });
        charged++;
        continue;
      }
      const delay = CHARGE_RETRY_DAYS[attempt - 1];
      const nextAttemptAt = delay === undefined ? null : new Date(now.getTime() + delay * DAY_MS);
      await this.repo.transaction(async (repo, tx) => {
        await repo.updateCharge(order.id, { attempts: attempt, nextAttemptAt, lastError: message });
        await this.deps.events.emit(tx, 'card.charge_failed', {
          accountId: order.accountId,
          orderId: order.id,
          reference: order.reference,
          amountGbpMinor: order.totalGbpMinor - order.paidGbpMinor,
          attempt,
          message,
          nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
        });
      });
      failed++;
    }
    return { charged, failed };
  }

  /** Puts a renewal or a month's bill to pay by card on the charge schedule (the `order.placed` subscriber). */
  async scheduleCharge(tx: Database, orderId: string, now = new Date()): Promise<void> {
    const repo = new CardRepository(tx);
    const order = await repo.order(orderId);
    if (!order || order.paymentMethod !== 'FIAT' || order.status !== 'AWAITING_PAYMENT') return;
    if (order.kind !== 'RENEWAL' && order.kind !== 'USAGE') return;
    await repo.scheduleCharge(order.id, order.accountId, now);
  }

  /**
   * Intents left unfinished for a while (a webhook lost while the server was down): read again from
   * the provider, so an order paid while the platform was away is settled (the job). A checkout
   * confirmed in the browser is still requires_payment_method here until the provider's answer
   * comes, so those are read too, for a day after they were made (each at most once a minute).
   */
  async reconcile(now = new Date(), olderThanMs = 60_000): Promise<number> {
    if (!this.isAvailable) return 0;
    const rows = await this.repo.unfinishedIntents(
      new Date(now.getTime() - olderThanMs),
      new Date(now.getTime() - DAY_MS),
    );
    for (const row of rows) {
      const view =
        row.kind === 'PAYMENT'
          ? await this.gateway.retrievePaymentIntent(row.intentId)
          : await this.gateway.retrieveSetupIntent(row.intentId);
      await this.record(row, view);
    }
    return rows.length;
  }

  /** A payment its order could not take, refunded in full (card-refunds.ts; the `card.refund_due` subscriber). */
  refundUnsettled(payment: Parameters<CardRefunds['refundUnsettled']>[0]) {
    return this.refunds.refundUnsettled(payment);
  }

  /** Staff refund (part of) an order paid by card, with a credit note (card-refunds.ts). */
  refund(staff: AuditActor & { id: string }, orderId: string, body: TCardRefundRequest): Promise<TCreditNote> {
    return this.refunds.refund(staff, orderId, body);
  }

  private async callersOrder(caller: Pick<Caller, 'accountId'>, orderId: string): Promise<PayableOrder> {
    const order = await this.repo.order(orderId);
    if (!order || order.accountId !== caller.accountId) throw notFound('ORDER_NOT_FOUND');
    return order;
  }

  /** The account's customer at the provider, created once. */
  private async customerFor(caller: Caller) {
    const existing = await this.repo.customer(caller.accountId);
    if (existing) return existing;
    const customer = await this.read(() =>
      this.gateway.createCustomer(
        { accountId: caller.accountId, email: caller.email, name: null },
        `account:${caller.accountId}:customer`,
      ),
    );
    return this.repo.saveCustomer(caller.accountId, customer.id);
  }

  /** Charges the account's saved card for what the order still owes; a decline is an answer. */
  private async chargeSaved(order: PayableOrder, purpose: 'MONTHLY', key: string) {
    const customer = await this.repo.customer(order.accountId);
    if (!customer?.paymentMethodId) throw problem('CARD_NOT_SAVED');
    const due = order.totalGbpMinor - order.paidGbpMinor;
    const view = await this.read(() =>
      this.gateway.chargeSavedCard(
        {
          amount: due,
          currency: 'gbp',
          customerId: customer.customerId,
          paymentMethodId: customer.paymentMethodId!,
          description: `Order ${order.reference}`,
          metadata: { orderId: order.id, accountId: order.accountId, reference: order.reference },
        },
        key,
      ),
    );
    const row = await this.repo.insertIntent({
      accountId: order.accountId,
      orderId: order.id,
      intentId: view.id,
      kind: 'PAYMENT',
      purpose,
      status: 'processing',
      clientSecret: view.clientSecret,
      amountGbpMinor: due,
    });
    await this.record(row, view);
    return { row, view };
  }

  /** Waits (bounded) until the bus has settled the order: see card-settlement-wait.ts. */
  private async waitForSettlement(accountId: string, orderId: string): Promise<void> {
    await waitForSettlement(this.deps.db, { accountId, orderId }, async () => (await this.repo.order(orderId))?.status);
  }

  private async confirmation(
    row: CardIntentRow,
    view: PaymentIntentView | SetupIntentView,
  ): Promise<TCardConfirmation> {
    const order = row.orderId ? await this.repo.order(row.orderId) : null;
    const customer = await this.repo.customer(row.accountId);
    return {
      kind: row.kind,
      intentId: row.intentId,
      status: view.status,
      orderId: row.orderId,
      orderStatus: (order?.status as TCardConfirmation['orderStatus']) ?? null,
      failure: view.lastError
        ? { code: view.lastError.declineCode ?? view.lastError.code, message: view.lastError.message }
        : null,
      card: savedCard(customer),
    };
  }

  private answerIntent(row: CardIntentRow, status: CardIntentRow['status']): TCardIntent {
    return {
      kind: row.kind,
      intentId: row.intentId,
      clientSecret: row.clientSecret,
      status: status as TCardIntent['status'],
      amountGbpMinor: row.amountGbpMinor,
      orderId: row.orderId,
      provider: this.provider(),
    };
  }

  /**
   * A provider call; its failure (not a decline: those are answers) is a 502 with nothing half-done.
   * A call the provider answers "key in use" (another request with its idempotency key still in
   * flight: concurrent steps of one order send the same key) is sent again after a short wait, and
   * then gets that request's result: one intent, charge or refund for all of them.
   */
  private async read<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (error instanceof ProblemError) throw error;
        const wait = error instanceof CardKeyInUseError ? KEY_IN_USE_WAITS_MS[attempt] : undefined;
        if (wait !== undefined) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        this.deps.log.error({ err: error }, 'card provider call failed');
        throw problem('CARD_PROVIDER_ERROR');
      }
    }
  }
}

const isOpen = (status: string) =>
  ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(status);

function failureText(view: PaymentIntentView): string {
  if (view.status === 'requires_action')
    return 'Your bank asks you to authenticate this payment. Pay it in the portal.';
  return view.lastError?.message ?? CARD_MESSAGES.failed;
}

function savedCard(
  customer: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null } | null,
) {
  if (!customer?.brand || !customer.last4 || !customer.expMonth || !customer.expYear) return null;
  return { brand: customer.brand, last4: customer.last4, expMonth: customer.expMonth, expYear: customer.expYear };
}
