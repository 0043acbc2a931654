import { randomUUID } from 'node:crypto';
import type { Database, PaymentMethod } from '@connect/db';
import {
  documentNumber,
  INVOICE_SERIES,
  PLAN_TERMS,
  splitVat,
  type TClosePeriodResult,
  type TMethodClass,
} from '@connect/shared';
import type { FastifyBaseLogger } from 'fastify';
import { createPriceSource, type PriceQuote, type PriceSource } from '../../../adapters/prices/create.ts';
import type { Config } from '../../../config.ts';
import type { EventBus } from '../../../events/port.ts';
import { problem } from '../../../lib/errors.ts';
import { formatCount, formatDollars } from '../../../lib/formats.ts';
import { monthStartOf } from '../../../lib/months.ts';
import { penceToQntWei, usdCentsToPence } from '../../../lib/prices.ts';
import { takeNumbers } from '../../../repositories/invoice-numbers.ts';
import type { Deps } from '../../../types.ts';
import { qntPayments } from '../index.ts';
import {
  InvoiceCloseRepository,
  type DraftInvoice,
  type DraftLine,
  type Bill,
  type Finalised,
  type PeriodFigures,
  type UsageGroup,
} from './close-repository.ts';
import { invoiceOrdersOf, type InvoiceOrders } from './orders-port.ts';
import { invoiceTermsOf, type InvoiceTerms } from '../../../repositories/invoice-customers.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What the close needs of QNT payments: a QNT order's quote (its deposit address and amount), in the close's transaction. */
export type CloseQnt = {
  quote(
    tx: Database,
    order: { id: string; accountId: string; totalGbpMinor: number },
    price: PriceQuote,
  ): Promise<void>;
};

export type InvoiceCloseDeps = {
  db: Database;
  events: EventBus;
  config: Pick<Config, 'billing' | 'invoices'>;
  /** The QNT price, read once per finalisation. */
  prices: PriceSource;
  /** The methods taken now: a month's bill is paid the way the last order was, else the first of these. */
  paymentMethods: () => readonly PaymentMethod[];
  /** QNT payments where QNT is taken (a QNT bill gets its quote at once, as a renewal does); null otherwise. */
  qnt: CloseQnt | null;
  /** The orders (the account-plan service's): the bills' USAGE orders placed, and their plans waiting for them. */
  orders: Pick<InvoiceOrders, 'newReference' | 'billMethods' | 'placeBills' | 'awaitBills'>;
  /** Tests only: called between the steps of a finalisation, to crash it there. */
  crashPoint?: (step: 'numbered' | 'placed') => void;
};

export type ClosePeriodInput = {
  /** The end of the period (excluded): a UTC month's start for the job, any time for the dev close. */
  periodEnd: Date;
  now: Date;
  /** Number the drafts now, without waiting for the grace window (the dev close). */
  finaliseNow?: boolean;
};

/** The runtime face of the close (deps.runtime.invoices): the job and the dev routes. */
export type InvoicesRuntime = {
  closePeriod(input: ClosePeriodInput): Promise<TClosePeriodResult>;
};

/** What a draft run read and wrote, per account (the finalisation in the same transaction uses it). */
type Drafted = { count: number; figures: Map<string, PeriodFigures>; terms: Map<string, InvoiceTerms> };

export { monthStartOf };

/** The start of the UTC month a period ending at `periodEnd` (excluded) belongs to. */
export function periodStartOf(periodEnd: Date): Date {
  return monthStartOf(new Date(periodEnd.getTime() - 1));
}

/**
 * The month's close (issue 18 §1; docs/decisions/usage-and-invoices.md, "Invoices (issue 18)"): bills every
 * pay-as-you-go account's use of a UTC month, set-based (a few statements for all accounts, never a
 * query per account).
 *
 * 1. It waits for the usage: nothing happens while the usage close's mark is before the period's
 *    end (PERIOD_NOT_CLOSABLE), so every billed hour of the period is in the ledger.
 * 2. Draft: one MONTHLY DRAFT invoice per account with use or credits to bill, its lines from the
 *    usage records and the ledger; recomputed on every run until it is numbered (late usage, by
 *    the hour its close billed it, still counts). Drafts are never shown to customers.
 * 3. Finalise, once the grace window (config.invoices.graceHours) has passed: drafts that bill
 *    nothing, and drafts of earlier period ends never numbered (superseded: this period starts
 *    after each account's last numbered invoice), are deleted; the rest are priced in QNT at one
 *    read of the price (their QNT quotes too) and collected by a USAGE order each (so QNT, card
 *    and transfer pay them as before); the plans wait for their bill (RENEWAL_DUE);
 *    `order.placed` and `plan.changed` are announced; then, last, the bills are numbered from
 *    the INV counter in one go (no gaps: the counter is taken in the same transaction),
 *    snapshotted (customer, VAT), and `invoice.finalised` announced. The counter's row lock is
 *    the transaction's last: an order's placement locks its plan and then takes a
 *    number, so the two never wait for each other in a cycle, and orders wait only for the
 *    numbering and the commit, never for the close's bulk writes and quotes.
 *
 * Each step is one transaction holding the close's advisory lock: two nodes run one after the
 * other, the second finding nothing; a crash rolls the step back whole, and the next run does it
 * again; a finalised period makes nothing more.
 */
export class InvoiceClose implements InvoicesRuntime {
  constructor(private readonly deps: InvoiceCloseDeps) {}

  async closePeriod({ periodEnd, now, finaliseNow = false }: ClosePeriodInput): Promise<TClosePeriodResult> {
    const monthStart = periodStartOf(periodEnd);
    const result: TClosePeriodResult = {
      periodStart: monthStart.toISOString(),
      periodEnd: periodEnd.toISOString(),
      drafted: 0,
      finalised: 0,
      invoiceIds: [],
    };
    const repo = new InvoiceCloseRepository(this.deps.db);
    const isDue = finaliseNow || now.getTime() >= periodEnd.getTime() + this.deps.config.invoices.graceHours * HOUR_MS;
    const drafted = await repo.transaction(async (step, db) => {
      if (!(await this.isOpen(step, periodEnd))) return null;
      const { count } = await this.draft(step, db, monthStart, periodEnd, now);
      await step.markDrafted(monthStart, periodEnd, now);
      return count;
    });
    if (drafted === null) return result;
    result.drafted = drafted;
    if (!isDue) return result;
    return repo.transaction(async (step, db) => {
      if (!(await this.isOpen(step, periodEnd))) return result;
      // Recomputed in the finalising transaction: what was stored since the draft counts.
      const drafted = await this.draft(step, db, monthStart, periodEnd, now);
      const invoiceIds = await this.finalise(step, db, drafted, monthStart, periodEnd, now);
      return { ...result, finalised: invoiceIds.length, invoiceIds };
    });
  }

  /** Locks the close and answers whether the period is still to close; refuses while its usage is not all charged. */
  private async isOpen(repo: InvoiceCloseRepository, periodEnd: Date): Promise<boolean> {
    await repo.lockClose();
    if ((await repo.closeOf(periodEnd))?.finalisedAt) return false;
    const closedUntil = await repo.usageClosedUntil();
    if (!closedUntil || closedUntil < periodEnd) {
      throw problem('PERIOD_NOT_CLOSABLE', {
        detail: `The usage is charged up to ${closedUntil?.toISOString() ?? 'nothing yet'}; the period ends at ${periodEnd.toISOString()}.`,
      });
    }
    return true;
  }

  private async draft(
    repo: InvoiceCloseRepository,
    tx: Database,
    monthStart: Date,
    periodEnd: Date,
    now: Date,
  ): Promise<Drafted> {
    const figures = await repo.figures(monthStart, periodEnd);
    const terms = await invoiceTermsOf(
      tx,
      figures.map((row) => row.accountId),
      this.deps.config.invoices,
    );
    const { usdPerGbp } = this.deps.config.billing;
    const drafts = figures.map((row) => draftOf(row, terms.get(row.accountId)!, usdPerGbp, periodEnd));
    const count = await repo.writeDrafts(periodEnd, now, PLAN_TERMS.renewalGraceDays, drafts);
    return { count, figures: new Map(figures.map((row) => [row.accountId, row])), terms };
  }

  private async finalise(
    repo: InvoiceCloseRepository,
    tx: Database,
    { figures, terms }: Drafted,
    monthStart: Date,
    periodEnd: Date,
    now: Date,
  ): Promise<string[]> {
    await repo.deleteSupersededDrafts(periodEnd, now);
    await repo.deleteEmptyDrafts(periodEnd);
    const drafts = await repo.drafts(periodEnd);
    if (drafts.length === 0) {
      await repo.markFinalised(monthStart, periodEnd, now, 0);
      return [];
    }
    const accountIds = drafts.map((draft) => draft.accountId);
    const { orders } = this.deps;
    const methods = await orders.billMethods(tx, accountIds, this.deps.paymentMethods());
    // One price for the whole run: every invoice of the period is priced in QNT at the same rate.
    const price = await this.deps.prices.qntInGbp();
    const dueAt = new Date(now.getTime() + PLAN_TERMS.renewalGraceDays * DAY_MS);
    const bills: Bill[] = drafts.map((draft) => {
      const row = figures.get(draft.accountId)!;
      const term = terms.get(draft.accountId)!;
      return {
        invoiceId: draft.id,
        orderId: randomUUID(),
        accountId: draft.accountId,
        customer: term.customer,
        vatTreatment: term.vatTreatment,
        vatRateBp: term.vatRateBp,
        qntAmountWei: penceToQntWei(draft.totalMinor, price.gbpPerQnt).toString(),
        reference: orders.newReference(),
        idempotencyKey: `month-bill:${draft.accountId}:${periodEnd.toISOString()}`,
        ratePlanId: row.ratePlanId,
        credits: row.billedCredits,
        bundleUsdCents: draft.totalUsdCents,
        totalGbpMinor: draft.totalMinor,
        paymentMethod: methods.get(draft.accountId) ?? 'BANK_TRANSFER',
        periodStart: draft.periodStart,
      };
    });
    await orders.placeBills(tx, bills, { periodEnd, now, dueAt, usdPerGbp: this.deps.config.billing.usdPerGbp });
    this.deps.crashPoint?.('placed');
    for (const bill of bills) {
      if (bill.paymentMethod !== 'QNT' || !this.deps.qnt) continue;
      const order = { id: bill.orderId, accountId: bill.accountId, totalGbpMinor: bill.totalGbpMinor };
      await this.deps.qnt.quote(tx, order, price);
    }
    // The plans wait for their bills through their own transition (account-plan's BILL_PLACED,
    // applied to every billed plan at once), with `order.placed` and `plan.changed`.
    await orders.awaitBills(tx, bills, now);
    const { events } = this.deps;
    await repo.markFinalised(monthStart, periodEnd, now, bills.length);
    // Numbered last (issue 18 review): the platform-wide INV counter is locked after every other
    // row this transaction locks (the plans above, as an order's placement locks its plan before
    // taking a number: no deadlock), and held only for the numbering and one event insert until
    // the commit, not through the orders, quotes and plan updates.
    const first = await takeNumbers(tx, INVOICE_SERIES.invoice, bills.length);
    const finalised: Finalised[] = bills.map((bill, index) => ({
      ...bill,
      seq: first + index,
      number: documentNumber(INVOICE_SERIES.invoice, first + index),
    }));
    await repo.numberInvoices(
      periodEnd,
      now,
      {
        termsDays: PLAN_TERMS.renewalGraceDays,
        dueAt,
        usdPerGbp: this.deps.config.billing.usdPerGbp,
        gbpPerQnt: price.gbpPerQnt,
        qntRateAt: price.at,
      },
      finalised,
    );
    this.deps.crashPoint?.('numbered');
    await events.emitMany(
      tx,
      'invoice.finalised',
      finalised.map((bill) => ({
        accountId: bill.accountId,
        invoiceId: bill.invoiceId,
        number: bill.number,
        orderId: bill.orderId,
        totalGbpMinor: bill.totalGbpMinor,
        dueAt: dueAt.toISOString(),
      })),
    );
    return finalised.map((bill) => bill.invoiceId);
  }
}

/** The words of a class of calls on the invoice. */
const CLASS_WORDS: Record<TMethodClass, string> = {
  read: 'read',
  log: 'log',
  send: 'send',
  deployment: 'deployment',
};

const UTC_DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
/** A period's day (periods are UTC months): '07.03.2026'. */
const formatDate = (date: Date) => UTC_DATE.format(date).replaceAll('/', '.');

const CREDITS = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4 });
/** Micro-credits as credits, up to four decimals, grouped by thousands. */
const credits = (micro: number) => CREDITS.format(micro / 1_000_000);

/** Pounds per credit as a decimal string, four decimals: $1.20 at 1.27 → '0.9449'. */
function poundsPerCredit(usdCents: number, usdPerGbp: string): string {
  return (usdCents / 100 / Number(usdPerGbp)).toFixed(4);
}

const info = (description: string, quantity: number): DraftLine => ({
  description,
  quantity,
  unitPriceMinor: 0,
  unitPrice: '0.00',
  vatRateBp: 0,
  vatMinor: 0,
  amountMinor: 0,
});

function usageLine(group: UsageGroup): DraftLine {
  if (group.source === 'DEPLOYMENT') {
    return info(`Token deployments (${formatCount(group.calls)}): ${credits(group.microCredits)} credits`, group.calls);
  }
  return info(
    `Gateway calls — ${CLASS_WORDS[group.methodClass]} (${formatCount(group.calls)} calls): ${credits(group.microCredits)} credits`,
    group.calls,
  );
}

/**
 * One account's draft (pure): the use by source and class and the ledger's credits (no money),
 * then the one money line, the credits billed at the plan's price; VAT is inside the price
 * (decision 1), extracted at the account's rate.
 */
export function draftOf(row: PeriodFigures, terms: InvoiceTerms, usdPerGbp: string, periodEnd: Date): DraftInvoice {
  const usdCents = row.billedCredits * row.creditPriceUsdCents;
  const grossMinor = usdCentsToPence(usdCents, usdPerGbp);
  const { netMinor, vatMinor } = splitVat(grossMinor, terms.vatRateBp);
  const covered = Math.max(0, row.usedCredits - row.billedCredits);
  // The unit price without VAT, as the amount beside it: quantity × unit price ≈ amount (4 decimals).
  const grossUnit = Number(poundsPerCredit(row.creditPriceUsdCents, usdPerGbp));
  const unitPrice = ((grossUnit * 10_000) / (10_000 + terms.vatRateBp)).toFixed(4);
  const lines: DraftLine[] = [
    ...row.usage.map(usageLine),
    info(
      `Credits used, ${formatDate(row.periodStart)} – ${formatDate(new Date(periodEnd.getTime() - 1))}`,
      row.usedCredits,
    ),
    info('Covered by your credit balance', covered),
    {
      description: `Credits billed at ${formatDollars(row.creditPriceUsdCents)} each (${formatDollars(usdCents)} at $${usdPerGbp} to the pound)`,
      quantity: row.billedCredits,
      unitPriceMinor: Math.round(Number(unitPrice) * 100),
      unitPrice,
      vatRateBp: terms.vatRateBp,
      vatMinor,
      amountMinor: netMinor,
    },
  ];
  return {
    accountId: row.accountId,
    periodStart: row.periodStart,
    subtotalMinor: netMinor,
    vatMinor,
    totalMinor: grossMinor,
    vatTreatment: terms.vatTreatment,
    vatRateBp: terms.vatRateBp,
    totalUsdCents: usdCents,
    lines,
  };
}

/**
 * The close as this node runs it (deps.runtime.invoices): its QNT payments quote QNT bills, the
 * methods taken are those orders are taken with, and the orders are account-plan's, through the
 * port it fills (orders-port.ts).
 */
export function createInvoicesRuntime(
  deps: Pick<Deps, 'db' | 'events' | 'config' | 'box' | 'chains' | 'runtime'>,
  log: FastifyBaseLogger,
): InvoicesRuntime {
  const qnt = qntPayments(deps, log);
  const orders = invoiceOrdersOf(deps);
  return new InvoiceClose({
    db: deps.db,
    events: deps.events,
    config: deps.config,
    prices: createPriceSource(deps.config),
    paymentMethods: () => orders.paymentMethods(),
    qnt: qnt.isAvailable ? qnt : null,
    orders,
  });
}
