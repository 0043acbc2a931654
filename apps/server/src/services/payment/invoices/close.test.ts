import { and, asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  accountPlans,
  billingDetails,
  invoiceCloses,
  invoiceCounters,
  invoiceLines,
  invoices,
  ledgerEntries,
  orders,
} from '@connect/db';
import { PLAN_TERMS, splitVat, USAGE_CLOSE_GRACE_MINUTES } from '@connect/shared';
import { createTestApp, type TestContext } from '../../../../test/helpers.ts';
import { OutboxRepository } from '../../../events/repository.ts';
import { penceToQntWei, usdCentsToPence } from '../../../lib/prices.ts';
import { LedgerRepository } from '../../../repositories/ledger.ts';
import {
  addNetwork,
  activate,
  createApplication,
  newAppUser,
  type TestUser,
} from '../../application-manager/testing.ts';
import { GatewayRepository } from '../../gateway/repository.ts';
import { payPlan } from '../../account-plan/testing.ts';
import {
  administrator,
  planByCode,
  planOrder,
  placePlan,
  planState,
  receipt,
} from '../../account-plan/test-support.ts';
import { closeHours } from '../../usage/close.ts';
import { createInvoicesRuntime, InvoiceClose, type ClosePeriodInput } from './close.ts';

/*
 * The month's close against a fresh database each time: real gateway counters closed into usage
 * records and ledger entries by the usage close, then the invoice close with the time given.
 * Periods are UTC months from the month after next, counted from the clock at the start (so
 * entries the tests make now — trial credits, purchases — come before them, on any date, the
 * 1st and a month's last day included).
 */

const HOUR_MS = 3_600_000;
const STARTED = new Date();
/** The UTC month `offset` months from the one the tests started in. */
const monthFrom = (offset: number) => new Date(Date.UTC(STARTED.getUTCFullYear(), STARTED.getUTCMonth() + offset, 1));
/** The months billed: JAN is the month after next, FEB and MAR the two after it (not calendar months). */
const JAN = monthFrom(2);
const FEB = monthFrom(3);
const MAR = monthFrom(4);
/** Day `day` of the month starting at `month`, at `hour`:`minute` UTC. */
const on = (month: Date, day: number, hour = 0, minute = 0) =>
  new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), day, hour, minute));
/** A day as the invoice lines write it (dd.mm.yyyy). */
const dmy = (date: Date) =>
  [date.getUTCDate(), date.getUTCMonth() + 1].map((part) => String(part).padStart(2, '0')).join('.') +
  `.${date.getUTCFullYear()}`;
const TRIAL_CREDITS = 100;
/** eth_call: 100 micro-credits a call, so 10,000 calls are a credit. */
const CALLS_PER_CREDIT = 10_000;

type Account = TestUser & { applicationId: string };

describe('the month’s close (invoices)', () => {
  let t: TestContext;
  let networkId: string;

  beforeEach(async () => {
    t = await createTestApp();
    networkId = (await addNetwork(t)).id;
  });
  afterEach(() => t?.close());

  const close = (input: ClosePeriodInput) => t.app.deps.runtime.invoices!.closePeriod(input);
  const grace = () => t.app.deps.config.invoices.graceHours * HOUR_MS;
  const after = (date: Date, ms: number) => new Date(date.getTime() + ms);
  const usdPerGbp = () => t.app.deps.config.billing.usdPerGbp;
  /** What B credits cost at the plan's $1.20 a credit, in pence. */
  const pence = (credits: number) => usdCentsToPence(credits * 120, usdPerGbp());

  /** A pay-as-you-go account (trial credits and all) with an application on the network. */
  async function paygAccount(): Promise<Account> {
    const user = await newAppUser(t);
    await activate(t, user.accountId, networkId);
    const app = await createApplication(t, user, [networkId]);
    await payPlan(t, user.accountId, 'payg-standard', monthFrom(0));
    await t.db.db
      .update(accountPlans)
      .set({ lastPaymentMethod: 'BANK_TRANSFER' })
      .where(eq(accountPlans.accountId, user.accountId));
    return { ...user, applicationId: app.id };
  }

  /** `credits` of eth_call in the hour starting at `hour` (the gateway's counters, flushed). */
  async function spend(account: Account, hour: Date, credits: number, method = 'eth_call') {
    const calls = credits * CALLS_PER_CREDIT;
    await new GatewayRepository(t.app.deps.dbh).addUsage(
      [
        {
          applicationId: account.applicationId,
          networkId,
          method,
          hour: hour.toISOString(),
          calls,
          microCredits: calls * 100,
        },
      ],
      t.app.events,
    );
  }

  /** The usage close up to `until` (every hour before it charged). */
  const closeUsage = (until: Date) => closeHours(t.app.deps, after(until, USAGE_CLOSE_GRACE_MINUTES * 60_000));

  const monthly = (accountId?: string) =>
    t.db.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.kind, 'MONTHLY'), accountId ? eq(invoices.accountId, accountId) : undefined))
      .orderBy(asc(invoices.periodEnd));
  const linesOf = (invoiceId: string) =>
    t.db.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(asc(invoiceLines.position));
  const counter = async () =>
    (await t.db.db.select().from(invoiceCounters).where(eq(invoiceCounters.series, 'INV')))[0]!.last;
  const usageOrders = (accountId: string) =>
    t.db.db
      .select()
      .from(orders)
      .where(and(eq(orders.accountId, accountId), eq(orders.kind, 'USAGE')))
      .orderBy(asc(orders.periodEnd));

  it('refuses while the month’s usage is not all charged', async () => {
    const a = await paygAccount();
    await spend(a, after(FEB, -HOUR_MS), 150);
    await closeUsage(after(FEB, -HOUR_MS));
    await expect(close({ periodEnd: FEB, now: after(FEB, HOUR_MS) })).rejects.toMatchObject({
      code: 'PERIOD_NOT_CLOSABLE',
    });
    expect(await monthly()).toEqual([]);
  });

  it('drafts at the period end, recomputes within the grace window, numbers after it; a re-run creates nothing', async () => {
    const a = await paygAccount();
    await spend(a, on(JAN, 10, 10), 150);
    await spend(a, after(FEB, -HOUR_MS), 30, 'eth_getLogs');
    await closeUsage(FEB);
    const counterBefore = await counter();

    const drafted = await close({ periodEnd: FEB, now: after(FEB, HOUR_MS) });
    expect(drafted).toMatchObject({ drafted: 1, finalised: 0, invoiceIds: [], periodStart: JAN.toISOString() });
    const [draft] = await monthly(a.accountId);
    const billed = 150 + 30 - TRIAL_CREDITS;
    expect(draft).toMatchObject({
      status: 'DRAFT',
      number: null,
      numberSeq: null,
      periodStart: JAN,
      periodEnd: FEB,
      totalMinor: pence(billed),
    });
    expect(await counter()).toBe(counterBefore);

    // A record and its charge stored for an hour of the period before finalisation (as a close
    // whose mark was behind would) are on the invoice.
    const late = after(FEB, -2 * HOUR_MS).toISOString();
    await t.db.execute(
      `insert into usage_records (id, account_id, source, method, method_class, hour, billed_hour, calls, micro_credits)
       values ('gateway:late', '${a.accountId}', 'GATEWAY', 'eth_sendRawTransaction', 'send', '${late}', '${late}', 10, 10000000)`,
    );
    await new LedgerRepository(t.db.db).meter(a.accountId, 'CREDIT', 10n, {
      reason: 'late',
      reference: `usage:${a.accountId}:${late}`,
    });
    expect(await close({ periodEnd: FEB, now: after(FEB, grace() - 1) })).toMatchObject({ drafted: 1, finalised: 0 });
    expect(await monthly(a.accountId)).toHaveLength(1);
    expect((await monthly(a.accountId))[0]).toMatchObject({
      id: draft!.id,
      status: 'DRAFT',
      totalMinor: pence(billed + 10),
    });

    const now = after(FEB, grace());
    const finalised = await close({ periodEnd: FEB, now });
    expect(finalised).toMatchObject({ finalised: 1, invoiceIds: [draft!.id] });
    const [invoice] = await monthly(a.accountId);
    const gross = pence(billed + 10);
    const { netMinor, vatMinor } = splitVat(gross, 2000);
    expect(invoice).toMatchObject({
      status: 'OPEN',
      numberSeq: counterBefore + 1,
      number: `INV-${String(counterBefore + 1).padStart(6, '0')}`,
      subtotalMinor: netMinor,
      vatMinor,
      totalMinor: gross,
      vatTreatment: 'STANDARD',
      vatRateBp: 2000,
      totalUsdCents: (billed + 10) * 120,
      usdPerGbp: usdPerGbp(),
      finalisedAt: now,
      issuedAt: now,
      dueAt: after(now, PLAN_TERMS.renewalGraceDays * 86_400_000),
      termsDays: PLAN_TERMS.renewalGraceDays,
      usageCutAt: now,
      customer: { companyName: expect.any(String), address: [], email: a.email },
    });
    // The QNT amount at the price read once for the run, with its rate and time.
    const gbpPerQnt = t.app.deps.config.qnt.gbpPrice;
    expect(invoice!.gbpPerQnt).toBe(gbpPerQnt);
    expect(invoice!.qntAmountWei).toBe(penceToQntWei(gross, gbpPerQnt));
    expect(invoice!.qntRateAt).toBeInstanceOf(Date);

    const lines = await linesOf(invoice!.id);
    expect(lines.map((line) => [line.description, line.quantity, line.amountMinor, line.vatMinor])).toEqual([
      ['Gateway calls — log (300,000 calls): 30 credits', 300_000, 0, 0],
      ['Gateway calls — read (1,500,000 calls): 150 credits', 1_500_000, 0, 0],
      ['Gateway calls — send (10 calls): 10 credits', 10, 0, 0],
      [`Credits used, ${dmy(JAN)} – ${dmy(after(FEB, -1))}`, 190, 0, 0],
      ['Covered by your credit balance', TRIAL_CREDITS, 0, 0],
      [
        `Credits billed at $1.20 each ($${((billed + 10) * 1.2).toFixed(2)} at $${usdPerGbp()} to the pound)`,
        billed + 10,
        netMinor,
        vatMinor,
      ],
    ]);
    expect(lines.reduce((sum, line) => sum + line.amountMinor + line.vatMinor, 0)).toBe(gross);

    // The USAGE order that collects it, and the plan waiting for it.
    const [order] = await usageOrders(a.accountId);
    expect(order).toMatchObject({
      id: invoice!.orderId,
      idempotencyKey: `month-bill:${a.accountId}:${FEB.toISOString()}`,
      credits: billed + 10,
      totalGbpMinor: gross,
      status: 'AWAITING_PAYMENT',
      paymentMethod: 'BANK_TRANSFER',
      periodStart: JAN,
      periodEnd: FEB,
      dueAt: invoice!.dueAt,
    });
    expect(await planState(t, a.accountId)).toMatchObject({ statusReason: 'RENEWAL_DUE', pendingOrderId: order!.id });
    const outbox = new OutboxRepository(t.db.db);
    expect((await outbox.ofType('invoice.finalised')).map((event) => event.payload)).toEqual([
      {
        accountId: a.accountId,
        invoiceId: invoice!.id,
        number: invoice!.number,
        orderId: order!.id,
        totalGbpMinor: gross,
        dueAt: invoice!.dueAt.toISOString(),
      },
    ]);
    expect((await outbox.ofType('order.placed')).filter((event) => event.payload.orderId === order!.id)).toHaveLength(
      1,
    );

    // Again, and twice at once (two nodes): nothing more.
    const again = await Promise.all([
      close({ periodEnd: FEB, now }),
      close({ periodEnd: FEB, now: after(now, HOUR_MS) }),
    ]);
    expect(again.map((run) => [run.drafted, run.finalised])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(await monthly()).toHaveLength(1);
    expect(await usageOrders(a.accountId)).toHaveLength(1);
    expect(await counter()).toBe(counterBefore + 1);
    expect(await outbox.ofType('invoice.finalised')).toHaveLength(1);
    const [record] = await t.db.db.select().from(invoiceCloses).where(eq(invoiceCloses.periodEnd, FEB));
    expect(record).toMatchObject({ periodStart: JAN, finalisedAt: now, invoices: 1 });
  });

  it('a month within the credit balance bills nothing: no invoice, no number', async () => {
    const a = await paygAccount();
    await spend(a, on(JAN, 10, 10), 60);
    await closeUsage(FEB);
    const before = await counter();
    expect(await close({ periodEnd: FEB, now: FEB })).toMatchObject({ drafted: 1 });
    expect(await monthly()).toHaveLength(1);
    expect(await close({ periodEnd: FEB, now: after(FEB, grace()) })).toMatchObject({ finalised: 0 });
    expect(await monthly()).toEqual([]);
    expect(await counter()).toBe(before);
    expect(await usageOrders(a.accountId)).toEqual([]);
    expect(await planState(t, a.accountId)).toMatchObject({ statusReason: null });
  });

  it('a draft left over for an earlier period end (never numbered) is superseded by the next period’s invoice', async () => {
    const a = await paygAccount();
    await spend(a, on(JAN, 10, 10), 250);
    await closeUsage(FEB);
    // Drafted for the 20th, within its grace window, and never finalised.
    const orphanEnd = on(JAN, 20);
    expect(await close({ periodEnd: orphanEnd, now: orphanEnd })).toMatchObject({ drafted: 1, finalised: 0 });
    await close({ periodEnd: FEB, now: FEB, finaliseNow: true });
    // FEB's invoice starts after the last numbered one and bills the orphan's use: the orphan goes.
    const bills = await monthly(a.accountId);
    expect(bills.map((row) => [row.status, row.periodStart, row.periodEnd])).toEqual([['OPEN', JAN, FEB]]);
    const lines = await linesOf(bills[0]!.id);
    expect(lines[0]!.description).toBe('Gateway calls — read (2,500,000 calls): 250 credits');
    // Its close is over: closing that period end again makes nothing.
    expect(await close({ periodEnd: orphanEnd, now: FEB, finaliseNow: true })).toMatchObject({
      drafted: 0,
      finalised: 0,
    });
    expect(await monthly(a.accountId)).toHaveLength(1);
  });

  it('numbers without gaps over two periods, interleaved with order invoices', async () => {
    const [a, b] = [await paygAccount(), await paygAccount()];
    await spend(a, on(JAN, 5, 10), 200);
    await spend(b, on(JAN, 6, 10), 300);
    await closeUsage(FEB);
    await close({ periodEnd: FEB, now: FEB, finaliseNow: true });
    // An order's invoice is numbered at placement, between the two closes.
    const other = await newAppUser(t);
    await placePlan(t, other, planOrder((await planByCode(t, 'annual-standard')).id));
    await spend(a, on(FEB, 5, 10), 50);
    await spend(b, on(FEB, 6, 10), 70);
    await closeUsage(MAR);
    await close({ periodEnd: MAR, now: MAR, finaliseNow: true });

    const numbered = await t.db.db
      .select({ seq: invoices.numberSeq, number: invoices.number, kind: invoices.kind, accountId: invoices.accountId })
      .from(invoices)
      .orderBy(asc(invoices.numberSeq));
    expect(numbered.map((row) => row.seq)).toEqual(numbered.map((_row, index) => index + 1));
    expect(await counter()).toBe(numbered.length);
    const sorted = [a.accountId, b.accountId].sort();
    // Within a period, by account id; the order's invoice between the periods.
    expect(numbered.slice(-5).map((row) => [row.kind, row.accountId])).toEqual([
      ['MONTHLY', sorted[0]],
      ['MONTHLY', sorted[1]],
      ['ORDER', other.accountId],
      ['MONTHLY', sorted[0]],
      ['MONTHLY', sorted[1]],
    ]);
  });

  it('a crash between the draft and the finalisation, or in the middle of it, leaves a state the next run finishes', async () => {
    const [a, b] = [await paygAccount(), await paygAccount()];
    await spend(a, on(JAN, 5, 10), 200);
    await spend(b, on(JAN, 6, 10), 300);
    await closeUsage(FEB);
    const before = await counter();
    const now = after(FEB, grace());
    for (const step of ['numbered', 'placed'] as const) {
      const crashing = new InvoiceClose({
        ...closeDeps(),
        crashPoint: (at) => {
          if (at === step) throw new Error(`crash at ${step}`);
        },
      });
      await expect(crashing.closePeriod({ periodEnd: FEB, now })).rejects.toThrow(`crash at ${step}`);
      // The drafts stay drafts; nothing was numbered, ordered or announced.
      expect((await monthly()).map((row) => [row.status, row.number])).toEqual([
        ['DRAFT', null],
        ['DRAFT', null],
      ]);
      expect(await counter()).toBe(before);
      expect(await t.db.db.select().from(orders).where(eq(orders.kind, 'USAGE'))).toEqual([]);
      expect(await new OutboxRepository(t.db.db).ofType('invoice.finalised')).toEqual([]);
    }
    expect(await close({ periodEnd: FEB, now })).toMatchObject({ finalised: 2 });
    expect((await monthly()).map((row) => row.numberSeq).sort()).toEqual([before + 1, before + 2]);
    expect(await t.db.db.select().from(orders).where(eq(orders.kind, 'USAGE'))).toHaveLength(2);
  });

  it('a bill paid in QNT is quoted at the price its invoice was priced at, however the price moves', async () => {
    const a = await paygAccount();
    await t.db.db.update(accountPlans).set({ lastPaymentMethod: 'QNT' }).where(eq(accountPlans.accountId, a.accountId));
    await spend(a, on(JAN, 5, 10), 250);
    await closeUsage(FEB);
    let reads = 0;
    const quoted: { orderId: string; gbpPerQnt: string }[] = [];
    const moving = new InvoiceClose({
      ...closeDeps(),
      // Every read of the price is a penny higher than the one before.
      prices: {
        qntInGbp: async () => ({ gbpPerQnt: `80.${String(++reads).padStart(2, '0')}`, at: FEB, source: 'test' }),
      },
      paymentMethods: () => ['QNT', 'BANK_TRANSFER'],
      qnt: { quote: async (_tx, order, price) => void quoted.push({ orderId: order.id, gbpPerQnt: price.gbpPerQnt }) },
    });
    await moving.closePeriod({ periodEnd: FEB, now: FEB, finaliseNow: true });
    const [bill] = await usageOrders(a.accountId);
    const [invoice] = await monthly(a.accountId);
    expect(bill!.paymentMethod).toBe('QNT');
    expect(quoted).toEqual([{ orderId: bill!.id, gbpPerQnt: invoice!.gbpPerQnt }]);
  });

  /** The close's dependencies as the app builds them (for a close with a crash point). */
  function closeDeps() {
    const runtime = createInvoicesRuntime(t.app.deps, t.app.log) as InvoiceClose;
    return (runtime as unknown as { deps: ConstructorParameters<typeof InvoiceClose>[0] }).deps;
  }

  describe('every credit used on credit is billed once across months, whenever the bills are paid', () => {
    async function twoMonths(pay: 'before-second-end' | 'in-second-grace' | 'after-second-close') {
      const staff = await administrator(t);
      const a = await paygAccount();
      await spend(a, on(JAN, 5, 10), 250); // 150 on credit
      await closeUsage(FEB);
      await close({ periodEnd: FEB, now: FEB, finaliseNow: true });
      const [first] = await usageOrders(a.accountId);
      expect(first!.credits).toBe(150);
      const payFirst = async () => {
        const res = await receipt(t, staff, first!.id, { amountGbpMinor: first!.totalGbpMinor });
        expect(res.statusCode, res.body).toBe(200);
      };
      if (pay === 'before-second-end') await payFirst();
      await spend(a, on(FEB, 5, 10), 40);
      await closeUsage(MAR);
      if (pay === 'in-second-grace') {
        await payFirst();
        // Paid after the second month ended (the tests' clock is before it: the purchase is moved there).
        await t.db.db
          .update(ledgerEntries)
          .set({ createdAt: after(MAR, HOUR_MS) })
          .where(eq(ledgerEntries.reference, `order:${first!.id}`));
      }
      await close({ periodEnd: MAR, now: MAR, finaliseNow: true });
      if (pay === 'after-second-close') await payFirst();
      const bills = await usageOrders(a.accountId);
      expect(bills.map((bill) => bill.credits)).toEqual([150, 40]);
      // Whenever the first was paid, the plan now waits for the second (its due date can fail the plan).
      expect(await planState(t, a.accountId)).toMatchObject({
        status: 'ACTIVE',
        statusReason: 'RENEWAL_DUE',
        pendingOrderId: bills[1]!.id,
      });
      const { balance } = await new LedgerRepository(t.db.db).balance(a.accountId, 'CREDIT');
      // Once both are paid, the balance is back to zero: nothing billed twice, nothing missed.
      await receipt(t, staff, bills[1]!.id, { amountGbpMinor: bills[1]!.totalGbpMinor });
      expect(await planState(t, a.accountId)).toMatchObject({ statusReason: null, pendingOrderId: null });
      expect((await new LedgerRepository(t.db.db).balance(a.accountId, 'CREDIT')).balance).toBe(balance + 40n);
      expect((await new LedgerRepository(t.db.db).balance(a.accountId, 'CREDIT')).balance).toBe(0n);
    }

    it('the first bill paid before the second month ends', () => twoMonths('before-second-end'));
    it('the first bill paid after the second month ended, before its close', () => twoMonths('in-second-grace'));
    it('the first bill paid after the second close', () => twoMonths('after-second-close'));
  });

  it('VAT by the customer’s country: GB standard, an EU business with a valid number reverse-charged, an EU customer without one at its rate, outside the table none', async () => {
    const accounts = [await paygAccount(), await paygAccount(), await paygAccount(), await paygAccount()];
    const details = [
      { country: 'GB', vatNumber: null, vatNumberStatus: 'NONE' as const },
      { country: 'DE', vatNumber: 'DE123456789', vatNumberStatus: 'VALID' as const },
      { country: 'FR', vatNumber: null, vatNumberStatus: 'NONE' as const },
      { country: 'US', vatNumber: null, vatNumberStatus: 'NONE' as const },
    ];
    for (const [index, account] of accounts.entries()) {
      await t.db.db.insert(billingDetails).values({
        accountId: account.accountId,
        companyName: `Company ${index}`,
        addressLine1: '1 High Street',
        city: 'Town',
        postcode: 'AB1 2CD',
        ...details[index]!,
      });
      await spend(account, on(JAN, 5, 10), 200);
    }
    await closeUsage(FEB);
    await close({ periodEnd: FEB, now: FEB, finaliseNow: true });
    const gross = pence(100);
    const expected = [
      ['STANDARD', 2000],
      ['REVERSE_CHARGE', 0],
      ['STANDARD', 2000],
      ['OUTSIDE_SCOPE', 0],
    ] as const;
    for (const [index, account] of accounts.entries()) {
      const [invoice] = await monthly(account.accountId);
      const [treatment, rate] = expected[index]!;
      const { netMinor, vatMinor } = splitVat(gross, rate);
      expect(invoice).toMatchObject({
        vatTreatment: treatment,
        vatRateBp: rate,
        totalMinor: gross,
        subtotalMinor: netMinor,
        vatMinor,
        customer: {
          companyName: `Company ${index}`,
          address: ['1 High Street', 'Town AB1 2CD'],
          country: details[index]!.country,
          vatNumber: details[index]!.vatNumber,
        },
      });
    }
  });

  it('a bill unpaid past its due date fails the plan; paying it restores the plan', async () => {
    const staff = await administrator(t);
    const a = await paygAccount();
    await spend(a, on(JAN, 5, 10), 250);
    await closeUsage(FEB);
    const now = after(FEB, grace());
    await close({ periodEnd: FEB, now });
    const [bill] = await usageOrders(a.accountId);
    const periods = t.app.deps.runtime.accountPlan!;
    await periods.sweep(after(bill!.dueAt, -1));
    expect(await planState(t, a.accountId)).toMatchObject({ status: 'ACTIVE', statusReason: 'RENEWAL_DUE' });
    await periods.sweep(bill!.dueAt);
    expect(await planState(t, a.accountId)).toMatchObject({ status: 'INACTIVE', statusReason: 'RENEWAL_FAILED' });
    const res = await receipt(t, staff, bill!.id, { amountGbpMinor: bill!.totalGbpMinor });
    expect(res.statusCode, res.body).toBe(200);
    expect(await planState(t, a.accountId)).toMatchObject({
      status: 'ACTIVE',
      statusReason: null,
      pendingOrderId: null,
    });
    const [invoice] = await monthly(a.accountId);
    expect(invoice).toMatchObject({ status: 'PAID', amountPaidMinor: bill!.totalGbpMinor });
  });

  it('POST /api/dev/billing/close-period closes the current period now; the same time again makes nothing', async () => {
    const a = await paygAccount();
    const at = on(JAN, 20, 15, 30);
    await spend(a, on(JAN, 20, 15), 180);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dev/billing/close-period',
      payload: { at: at.toISOString() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [invoice] = await monthly(a.accountId);
    expect(res.json()).toEqual({
      periodStart: JAN.toISOString(),
      periodEnd: at.toISOString(),
      drafted: 1,
      finalised: 1,
      invoiceIds: [invoice!.id],
    });
    expect(invoice).toMatchObject({ status: 'OPEN', totalMinor: pence(80), periodStart: JAN, periodEnd: at });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/dev/billing/close-period',
      payload: { at: at.toISOString() },
    });
    expect(again.json()).toMatchObject({ drafted: 0, finalised: 0, invoiceIds: [] });
    // The month's own close starts where the dev close ended, and bills only what came after.
    await spend(a, on(JAN, 25, 10), 20);
    await closeUsage(FEB);
    await close({ periodEnd: FEB, now: FEB, finaliseNow: true });
    const both = await monthly(a.accountId);
    expect(both.map((row) => [row.periodStart, row.periodEnd, row.totalMinor])).toEqual([
      [JAN, at, pence(80)],
      [at, FEB, pence(20)],
    ]);
    const bad = await t.app.inject({ method: 'POST', url: '/api/dev/billing/close-period', payload: { at: 'soon' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().invalidParams?.[0]?.name).toBe('at');
  });

  it('a second development close within the same hour bills the calls counted since the first', async () => {
    const [a, b] = [await paygAccount(), await paygAccount()];
    const hour = on(JAN, 20, 15);
    const [first, second] = [on(JAN, 20, 15, 30), on(JAN, 20, 15, 45)];
    const closeAt = (at: Date) =>
      t.app.inject({ method: 'POST', url: '/api/dev/billing/close-period', payload: { at: at.toISOString() } });
    await spend(a, hour, 180);
    expect((await closeAt(first)).json()).toMatchObject({ drafted: 1, finalised: 1 });
    // After the first close, in the same hour: more of A's calls, and B's first.
    await spend(a, hour, 10);
    await spend(b, hour, 130);
    expect((await closeAt(second)).json()).toMatchObject({ drafted: 2, finalised: 2 });
    const ofA = await monthly(a.accountId);
    expect(ofA.map((row) => [row.periodStart, row.periodEnd, row.totalMinor])).toEqual([
      [JAN, first, pence(80)],
      [first, second, pence(10)],
    ]);
    const [ofB] = await monthly(b.accountId);
    expect(ofB).toMatchObject({ periodStart: JAN, periodEnd: second, totalMinor: pence(30) });
    // The regular close past the hour finds nothing left to charge.
    expect(await closeUsage(on(JAN, 20, 16))).toEqual({ records: 0, charges: 0 });
  });

  it('an order’s invoice: the customer snapshot and the VAT inside its price', async () => {
    const user = await newAppUser(t);
    await t.db.db.insert(billingDetails).values({
      accountId: user.accountId,
      companyName: 'Acme Ltd',
      addressLine1: '1 High Street',
      city: 'London',
      country: 'GB',
    });
    const annual = await planByCode(t, 'annual-standard');
    const order = await placePlan(t, user, planOrder(annual.id));
    const [invoice] = await t.db.db.select().from(invoices).where(eq(invoices.orderId, order.id));
    const { netMinor, vatMinor } = splitVat(order.totalGbpMinor, 2000);
    expect(invoice).toMatchObject({
      totalMinor: order.totalGbpMinor,
      subtotalMinor: netMinor,
      vatMinor,
      vatTreatment: 'STANDARD',
      vatRateBp: 2000,
      customer: { companyName: 'Acme Ltd', address: ['1 High Street', 'London'], country: 'GB' },
    });
    const lines = await linesOf(invoice!.id);
    expect(lines.map((line) => [line.amountMinor, line.vatMinor, line.vatRateBp])).toEqual([
      [netMinor, vatMinor, 2000],
    ]);
  });
});
