import { and, asc, count, desc, eq, exists, gte, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import {
  cardCharges,
  cardCustomers,
  cardIntents,
  cardWebhookEvents,
  creditNotes,
  invoices,
  orders,
  payments,
  refunds,
  type CardIntentKind,
  type CardIntentPurpose,
  type Database,
} from '@connect/db';
import { INVOICE_SERIES, type TCardIntentStatus, type TSavedCard } from '@connect/shared';
import { accountRecipients, type AccountRecipient } from '../../repositories/account-recipients.ts';
import { takeNumber } from '../../repositories/invoice-numbers.ts';

export type CardIntentRow = typeof cardIntents.$inferSelect;
export type CardChargeRow = typeof cardCharges.$inferSelect;
export type CardCustomerRow = typeof cardCustomers.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type CreditNoteRow = typeof creditNotes.$inferSelect;

/** What card payments read of an order (the account-plan service owns orders; this only reads them). */
export type PayableOrder = {
  id: string;
  accountId: string;
  reference: string;
  kind: string;
  status: string;
  paymentMethod: string;
  totalGbpMinor: number;
  paidGbpMinor: number;
  userId: string | null;
};

/**
 * A refund's status when the provider refused it (it refunded nothing, so it counts nothing of
 * what can still be refunded). Other statuses are the provider's, or `pending` while it is asked.
 */
export const REFUND_FAILED = 'failed';

const paidSum = sql<number>`coalesce((select sum(${payments.amountGbpMinor}) from ${payments} where ${payments.orderId} = ${orders.id}), 0)::int`;

/** The only code of card payments that touches its tables (services/payment, card-payments.ts). */
export class CardRepository {
  constructor(readonly db: Database) {}

  transaction<T>(work: (repo: CardRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Database;
      return work(new CardRepository(db), db);
    });
  }

  async order(orderId: string): Promise<PayableOrder | null> {
    const [row] = await this.db
      .select({
        id: orders.id,
        accountId: orders.accountId,
        reference: orders.reference,
        kind: orders.kind,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        totalGbpMinor: orders.totalGbpMinor,
        paidGbpMinor: paidSum,
        userId: orders.userId,
      })
      .from(orders)
      .where(eq(orders.id, orderId));
    return row ? { ...row, paidGbpMinor: Number(row.paidGbpMinor) } : null;
  }

  /**
   * Holds the order's row until the transaction ends: one refund decision at a time per order.
   * (Orders are the account-plan service's; this only locks the row, it writes nothing.)
   */
  async lockOrder(orderId: string): Promise<void> {
    await this.db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
  }

  async customer(accountId: string): Promise<CardCustomerRow | null> {
    const [row] = await this.db.select().from(cardCustomers).where(eq(cardCustomers.accountId, accountId));
    return row ?? null;
  }

  /** Records the account's customer once; answers the one stored (a concurrent first call's, if any). */
  async saveCustomer(accountId: string, customerId: string): Promise<CardCustomerRow> {
    await this.db.insert(cardCustomers).values({ accountId, customerId }).onConflictDoNothing();
    return (await this.customer(accountId))!;
  }

  /** The card monthly charges use from now on. */
  async saveCard(accountId: string, card: TSavedCard & { id: string }): Promise<void> {
    await this.db
      .update(cardCustomers)
      .set({
        paymentMethodId: card.id,
        brand: card.brand,
        last4: card.last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        updatedAt: new Date(),
      })
      .where(eq(cardCustomers.accountId, accountId));
  }

  async insertIntent(intent: typeof cardIntents.$inferInsert): Promise<CardIntentRow> {
    await this.db.insert(cardIntents).values(intent).onConflictDoNothing();
    return (await this.intent(intent.intentId))!;
  }

  async intent(intentId: string): Promise<CardIntentRow | null> {
    const [row] = await this.db.select().from(cardIntents).where(eq(cardIntents.intentId, intentId));
    return row ?? null;
  }

  /** The order's intents, newest first. */
  intentsOf(orderId: string, kind?: CardIntentKind): Promise<CardIntentRow[]> {
    return this.db
      .select()
      .from(cardIntents)
      .where(and(eq(cardIntents.orderId, orderId), kind ? eq(cardIntents.kind, kind) : undefined))
      .orderBy(desc(cardIntents.createdAt));
  }

  async countIntents(accountId: string, purpose: CardIntentPurpose, orderId: string | null): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(cardIntents)
      .where(
        and(
          eq(cardIntents.accountId, accountId),
          eq(cardIntents.purpose, purpose),
          orderId ? eq(cardIntents.orderId, orderId) : undefined,
        ),
      );
    return Number(row?.n ?? 0);
  }

  /**
   * The provider's status stored; answers whether this call turned the intent succeeded (so
   * what follows a success happens once, whichever of the webhook and the confirmation came first).
   */
  async setStatus(
    intentId: string,
    status: TCardIntentStatus,
    failure: { code: string; message: string } | null,
  ): Promise<boolean> {
    const now = new Date();
    const turned = await this.db
      .update(cardIntents)
      .set({ status, updatedAt: now, failureCode: failure?.code ?? null, failureMessage: failure?.message ?? null })
      .where(and(eq(cardIntents.intentId, intentId), ne(cardIntents.status, 'succeeded')))
      .returning({ id: cardIntents.id });
    return turned.length > 0 && status === 'succeeded';
  }

  /**
   * Intents that may have moved at the provider without the platform hearing of it (a lost webhook,
   * a crash): not read for `olderThan`, made after `since`, not finished.
   */
  unfinishedIntents(olderThan: Date, since: Date, limit = 100): Promise<CardIntentRow[]> {
    return this.db
      .select()
      .from(cardIntents)
      .where(
        and(
          inArray(cardIntents.status, [
            'requires_payment_method',
            'requires_confirmation',
            'requires_action',
            'processing',
          ]),
          lte(cardIntents.updatedAt, olderThan),
          gte(cardIntents.createdAt, since),
        ),
      )
      .orderBy(asc(cardIntents.updatedAt))
      .limit(limit);
  }

  /** Marks a webhook event handled; false when it already was. */
  async markEvent(eventId: string, type: string): Promise<boolean> {
    const rows = await this.db
      .insert(cardWebhookEvents)
      .values({ eventId, type })
      .onConflictDoNothing()
      .returning({ id: cardWebhookEvents.eventId });
    return rows.length > 0;
  }

  /** Puts an order on the monthly-charge schedule (once), first attempt at `at`. */
  async scheduleCharge(orderId: string, accountId: string, at: Date): Promise<void> {
    await this.db.insert(cardCharges).values({ orderId, accountId, nextAttemptAt: at }).onConflictDoNothing();
  }

  /**
   * Charges due, claimed for this run: their next attempt is moved `leaseMs` on, in one statement
   * (another node skips the locked rows, and after the commit no longer finds them due), so a
   * charge is attempted by one node; a run that dies leaves it due again when the lease ends.
   * Only orders still to be paid by card (FIAT): one the customer switched to QNT (paying its
   * invoice in QNT) is never charged on the card as well.
   */
  async claimDueCharges(now: Date, limit: number, leaseMs: number): Promise<CardChargeRow[]> {
    const byCard = this.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, cardCharges.orderId), eq(orders.paymentMethod, 'FIAT')));
    const due = this.db
      .select({ orderId: cardCharges.orderId })
      .from(cardCharges)
      .where(and(isNotNull(cardCharges.nextAttemptAt), lte(cardCharges.nextAttemptAt, now), exists(byCard)))
      .orderBy(asc(cardCharges.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(cardCharges)
      .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
      .where(inArray(cardCharges.orderId, due))
      .returning();
  }

  async charge(orderId: string): Promise<CardChargeRow | null> {
    const [row] = await this.db.select().from(cardCharges).where(eq(cardCharges.orderId, orderId));
    return row ?? null;
  }

  async updateCharge(
    orderId: string,
    change: { attempts: number; nextAttemptAt: Date | null; lastError: string | null },
  ): Promise<void> {
    await this.db
      .update(cardCharges)
      .set({ ...change, updatedAt: new Date() })
      .where(eq(cardCharges.orderId, orderId));
  }

  /** The account's latest failed monthly charge whose order still waits, if any. */
  async failedCharge(accountId: string) {
    const [row] = await this.db
      .select({ charge: cardCharges, order: { reference: orders.reference, totalGbpMinor: orders.totalGbpMinor } })
      .from(cardCharges)
      .innerJoin(orders, eq(orders.id, cardCharges.orderId))
      .where(
        and(
          eq(cardCharges.accountId, accountId),
          isNotNull(cardCharges.lastError),
          eq(orders.status, 'AWAITING_PAYMENT'),
        ),
      )
      .orderBy(desc(cardCharges.updatedAt))
      .limit(1);
    return row ?? null;
  }

  /** The order's payments by card (its `payments` rows of method FIAT: the intent, the amount), newest first. */
  async cardPaymentsOf(orderId: string): Promise<{ intentId: string; amountGbpMinor: number }[]> {
    return this.db
      .select({ intentId: payments.externalId, amountGbpMinor: payments.amountGbpMinor })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.method, 'FIAT')))
      .orderBy(desc(payments.receivedAt));
  }

  /** What bank transfers paid the order (pence). */
  async bankPaidOf(orderId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<number>`coalesce(sum(${payments.amountGbpMinor}), 0)::int` })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.method, 'BANK_TRANSFER')));
    return Number(row?.total ?? 0);
  }

  /** Refunds of an order so far (pence), and the one recorded under `idempotencyKey`, if any. */
  async refunds(orderId: string): Promise<RefundRow[]> {
    return this.db.select().from(refunds).where(eq(refunds.orderId, orderId));
  }

  async insertRefund(refund: typeof refunds.$inferInsert): Promise<RefundRow | null> {
    const [row] = await this.db.insert(refunds).values(refund).onConflictDoNothing().returning();
    return row ?? null;
  }

  /** The provider refused the refund: it counts nothing from now on. */
  async failRefund(refundId: string): Promise<void> {
    await this.db.update(refunds).set({ status: REFUND_FAILED }).where(eq(refunds.id, refundId));
  }

  /**
   * A refused refund asked again with its staff key: the refused attempt keeps its row (failed,
   * counting nothing) under `<key>#refused:<id>`, which frees the key for the new attempt's row.
   */
  async retireRefusedRefund(refund: RefundRow): Promise<void> {
    await this.db
      .update(refunds)
      .set({ idempotencyKey: `${refund.idempotencyKey}#refused:${refund.id}` })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, REFUND_FAILED)));
  }

  async completeRefund(refundId: string, externalId: string, status: string): Promise<void> {
    await this.db.update(refunds).set({ externalId, status }).where(eq(refunds.id, refundId));
  }

  async invoiceOf(orderId: string): Promise<{ id: string } | null> {
    const [row] = await this.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.orderId, orderId));
    return row ?? null;
  }

  /** The refund's credit note, made and numbered (CN series) once; a second call answers the first's. */
  async insertCreditNote(note: typeof creditNotes.$inferInsert): Promise<CreditNoteRow> {
    const [made] = await this.db
      .insert(creditNotes)
      .values(note)
      .onConflictDoNothing()
      .returning({ id: creditNotes.id });
    // Numbered only by the transaction that made it (the unique refund holds any other until then).
    if (made) {
      const { seq, number } = await takeNumber(this.db, INVOICE_SERIES.creditNote);
      await this.db.update(creditNotes).set({ number, numberSeq: seq }).where(eq(creditNotes.id, made.id));
      await this.db.update(invoices).set({ updatedAt: new Date() }).where(eq(invoices.id, note.invoiceId));
    }
    const [row] = await this.db.select().from(creditNotes).where(eq(creditNotes.refundId, note.refundId));
    return row!;
  }

  async creditNoteOf(refundId: string): Promise<CreditNoteRow | null> {
    const [row] = await this.db.select().from(creditNotes).where(eq(creditNotes.refundId, refundId));
    return row ?? null;
  }

  /** Whom to mail about an account's card payments: every active member. */
  recipients(accountId: string): Promise<AccountRecipient[]> {
    return accountRecipients(this.db, accountId, null);
  }
}
