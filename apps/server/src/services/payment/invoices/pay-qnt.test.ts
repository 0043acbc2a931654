import { eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, qntPayments as qntPaymentRows } from '@connect/db';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { ZInvoicePaymentRate, ZOrder, type TInvoicePaymentRate, type TOrder } from '@connect/shared';
import type { TestChain } from '../../../../test/chains.ts';
import type { TestContext } from '../../../../test/helpers.ts';
import { rpcCall } from '../../../adapters/chains/rpc.ts';
import { administrator, customer, placePlan, planByCode, planOrder, receipt } from '../../account-plan/test-support.ts';
import { qntPayments } from '../index.ts';
import { creditsOrder, get, invoiceOf, paidPlanCustomer, type Session } from './test-support.ts';
import { followQnt, startQntTestApp, stopQntTestApp } from '../test-support.ts';

// A chain with the QNT token and an app taking QNT on it (as qnt-payments.test.ts): QNT reaches
// the account by a real transfer to its deposit address, confirmed by the follower stepped here.
const CONFIRMATIONS = 2;
const QNT = 10n ** 18n;
const payer = DEV_ACCOUNTS[1]!.address as Hex;

let chain: TestChain;
let token: Hex;
let t: TestContext;

beforeAll(async () => {
  ({ chain, token, t } = await startQntTestApp({ QNT_CONFIRMATIONS: String(CONFIRMATIONS), QNT_GBP_PRICE: '80' }));
}, 60_000);

afterAll(() => stopQntTestApp(t, chain));

const qnt = () => qntPayments(t.app.deps, t.app.log);

const follow = () => followQnt(t);

/** `amount` wei of QNT sent to the account's deposit address and confirmed: held for the customer. */
async function holdQnt(accountId: string, amount: bigint) {
  const { depositAddress } = await qnt().holding(accountId);
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [depositAddress as Hex, amount] });
  await rpcCall(chain.rpcUrl, 'eth_sendTransaction', [{ from: payer, to: token, data }]);
  await rpcCall(chain.rpcUrl, 'anvil_mine', [`0x${(CONFIRMATIONS + 1).toString(16)}`]);
  await follow();
}

async function rate(user: Session, invoiceId: string): Promise<TInvoicePaymentRate> {
  const res = await get(t, `/user/invoice/payment-rate/${invoiceId}`, user);
  expect(res.statusCode, res.body).toBe(200);
  return ZInvoicePaymentRate.parse(res.json());
}

/** The order's payment method and its QNT quote rows as stored. */
async function stored(orderId: string) {
  const [order] = await t.db.db.select().from(orders).where(eq(orders.id, orderId));
  const quotes = await t.db.db.select().from(qntPaymentRows).where(eq(qntPaymentRows.orderId, orderId));
  return { paymentMethod: order!.paymentMethod, status: order!.status, quotes };
}

/** A stored QNT payment as the invoice shows its QNT amount, rate and the rate's time. */
const qntOf = (quote: { amountDue: bigint; gbpPerQnt: string; rateAt: Date }) => ({
  amountWei: quote.amountDue.toString(),
  gbpPerQnt: quote.gbpPerQnt,
  rateAt: quote.rateAt.toISOString(),
});

async function payQnt(user: Session, invoiceId: string): Promise<TOrder> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/payment/user/invoice/${invoiceId}/pay-qnt`,
    headers: user.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return ZOrder.parse(res.json());
}

describe('paying an invoice in QNT', () => {
  it('quotes an order placed for bank transfer in QNT and settles it from the QNT held', async () => {
    const { user } = await paidPlanCustomer(t, await administrator(t));
    const order = await creditsOrder(t, user, 1_000);
    expect(order.paymentMethod).toBe('BANK_TRANSFER');
    await holdQnt(user.accountId, 50n * QNT);

    const quoted = await rate(user, order.invoiceId);
    expect(quoted).toMatchObject({ invoiceId: order.invoiceId, amountDue: order.totalGbpMinor, gbpPerQnt: '80' });
    expect(quoted.heldQnt).toBe((50n * QNT).toString());
    // £ due at £80 a QNT.
    expect(BigInt(quoted.qntPaymentAmount)).toBe((BigInt(order.totalGbpMinor) * QNT) / 8_000n);
    // Only a look: the order is still to be paid by bank transfer, with no quote.
    expect(quoted.order).toMatchObject({ id: order.id, paymentMethod: 'BANK_TRANSFER', status: 'AWAITING_PAYMENT' });
    expect(quoted.order.qnt).toBeNull();

    const paid = await payQnt(user, order.invoiceId);
    expect(paid).toMatchObject({ id: order.id, status: 'PAID', paidGbpMinor: order.totalGbpMinor });
    const invoice = await invoiceOf(t, user, order.invoiceId);
    expect([invoice.status, invoice.amountDue, invoice.paymentReceived]).toEqual(['PAID', 0, order.totalGbpMinor]);
    // The QNT it was paid with, at the stored quote's rate and time (not null as before).
    const { quotes } = await stored(order.id);
    expect(invoice.qnt).toEqual(qntOf(quotes[0]!));
    expect(invoice.qnt!.amountWei).toBe(quoted.qntPaymentAmount);
    const { held } = await qnt().holding(user.accountId);
    expect(BigInt(held)).toBe(50n * QNT - BigInt(quoted.qntPaymentAmount));

    // Again: the paid order, nothing taken twice; no more quotes for a paid invoice.
    expect(await payQnt(user, order.invoiceId)).toMatchObject({ id: order.id, status: 'PAID' });
    expect((await qnt().holding(user.accountId)).held).toBe(held);
    const refused = await get(t, `/user/invoice/payment-rate/${order.invoiceId}`, user);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'INVOICE_NOT_PAYABLE']);
  });

  it('answers the order with its deposit address when the QNT held is not enough; the transfer then settles it', async () => {
    const { user } = await paidPlanCustomer(t, await administrator(t));
    const order = await creditsOrder(t, user, 1_000);
    const waiting = await payQnt(user, order.invoiceId);
    expect(waiting).toMatchObject({ id: order.id, status: 'AWAITING_PAYMENT', paymentMethod: 'QNT' });
    expect(waiting.qnt).toMatchObject({
      status: 'NEW',
      depositAddress: (await qnt().holding(user.accountId)).depositAddress,
    });
    await holdQnt(user.accountId, BigInt(waiting.qnt!.amountDue));
    const invoice = await invoiceOf(t, user, order.invoiceId);
    expect([invoice.status, invoice.amountDue]).toEqual(['PAID', 0]);
  });

  it('an order part paid by transfer, then switched to QNT: a quote that ran out is made again for what is left', async () => {
    const staff = await administrator(t);
    const { user } = await paidPlanCustomer(t, staff);
    const order = await creditsOrder(t, user, 1_000);
    const part = Math.floor(order.totalGbpMinor / 2);
    const left = order.totalGbpMinor - part;
    expect((await receipt(t, staff, order.id, { amountGbpMinor: part })).statusCode).toBe(200);
    const waiting = await payQnt(user, order.invoiceId);
    const forLeft = (BigInt(left) * QNT) / 8_000n;
    expect(BigInt(waiting.qnt!.amountDue)).toBe(forLeft);
    // The quote runs out before the QNT arrives: settled late, at today's price, for what is left.
    await t.db.db
      .update(qntPaymentRows)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(qntPaymentRows.orderId, order.id));
    await holdQnt(user.accountId, forLeft);
    const invoice = await invoiceOf(t, user, order.invoiceId);
    expect([invoice.status, invoice.amountDue, invoice.paymentReceived]).toEqual(['PAID', 0, order.totalGbpMinor]);
    const { quotes } = await stored(order.id);
    expect(quotes).toMatchObject([{ amountDue: forLeft, reason: 'PAID_LATE' }]);
    // The invoice keeps the quote it was paid at: the one made again, not the one that ran out.
    expect(invoice.qnt).toEqual(qntOf(quotes[0]!));
    expect(Date.parse(invoice.qnt!.rateAt)).toBeGreaterThan(Date.parse(waiting.qnt!.rateAt));
  });

  it('the rate only reads: the order keeps its payment method and no quote is made until pay-qnt', async () => {
    const { user } = await paidPlanCustomer(t, await administrator(t));
    const order = await creditsOrder(t, user, 1_000);
    const before = await stored(order.id);
    expect(before).toEqual({ paymentMethod: 'BANK_TRANSFER', status: 'AWAITING_PAYMENT', quotes: [] });

    const first = await rate(user, order.invoiceId);
    const second = await rate(user, order.invoiceId);
    expect(await stored(order.id)).toEqual(before);
    for (const answer of [first, second]) {
      expect(answer).toMatchObject({ amountDue: order.totalGbpMinor, gbpPerQnt: '80' });
      expect(BigInt(answer.qntPaymentAmount)).toBe((BigInt(order.totalGbpMinor) * QNT) / 8_000n);
      expect(Date.parse(answer.expiresAt)).toBeGreaterThan(Date.now());
      expect(answer.order).toMatchObject({ id: order.id, paymentMethod: 'BANK_TRANSFER', qnt: null });
    }
    // The bank-transfer details are still the order's.
    expect((await invoiceOf(t, user, order.invoiceId)).status).toBe('OPEN');

    // Paying switches it to QNT and makes the quote the preview showed.
    const waiting = await payQnt(user, order.invoiceId);
    expect(waiting).toMatchObject({ id: order.id, paymentMethod: 'QNT', status: 'AWAITING_PAYMENT' });
    expect(waiting.qnt?.amountDue).toBe(first.qntPaymentAmount);
    const quoted = await stored(order.id);
    expect(quoted.paymentMethod).toBe('QNT');
    expect(quoted.quotes).toHaveLength(1);

    // The rate now answers that quote while it holds, and still changes nothing.
    const live = await rate(user, order.invoiceId);
    expect(live).toMatchObject({
      qntPaymentAmount: waiting.qnt!.amountDue,
      rateAt: waiting.qnt!.rateAt,
      expiresAt: waiting.qnt!.expiresAt,
      order: { id: order.id, paymentMethod: 'QNT', qnt: { depositAddress: waiting.qnt!.depositAddress } },
    });
    expect(await stored(order.id)).toEqual(quoted);
  });

  it('an order paid meanwhile (the invoice read still open): the rate answers 409, not a 500', async () => {
    const { user } = await paidPlanCustomer(t, await administrator(t));
    const order = await creditsOrder(t, user, 1_000);
    // Paid by bank transfer between the invoice's read and the order's: only the order says so yet.
    await t.db.db.update(orders).set({ status: 'PAID' }).where(eq(orders.id, order.id));
    const res = await get(t, `/user/invoice/payment-rate/${order.invoiceId}`, user);
    expect([res.statusCode, res.json().code]).toEqual([409, 'INVOICE_NOT_PAYABLE']);
    expect((await stored(order.id)).quotes).toEqual([]);
  });
});

describe('the QNT amount of an order paid in QNT', () => {
  it('a plan and credits ordered in QNT and paid from the wallet: the invoice shows the QNT, rate and time of its quote', async () => {
    const user = await customer(t);
    const annual = await planByCode(t, 'annual-standard');
    const plan = await placePlan(t, user, planOrder(annual.id, { paymentMethod: 'QNT' }));
    expect(plan.qnt?.status).toBe('NEW');
    // While it waits, the invoice has no QNT amount yet (nothing was paid in QNT).
    expect((await invoiceOf(t, user, plan.invoiceId)).qnt).toBeNull();
    await holdQnt(user.accountId, BigInt(plan.qnt!.amountDue));
    const invoice = await invoiceOf(t, user, plan.invoiceId);
    expect(invoice.status).toBe('PAID');
    expect(invoice.qnt).toEqual({ amountWei: plan.qnt!.amountDue, gbpPerQnt: '80', rateAt: plan.qnt!.rateAt });
    expect(invoice.qnt).toEqual(qntOf((await stored(plan.id)).quotes[0]!));

    const credits = await creditsOrder(t, user, 1_000, 'QNT');
    await holdQnt(user.accountId, BigInt(credits.qnt!.amountDue));
    const creditsInvoice = await invoiceOf(t, user, credits.invoiceId);
    expect(creditsInvoice.status).toBe('PAID');
    expect(creditsInvoice.qnt).toEqual({
      amountWei: credits.qnt!.amountDue,
      gbpPerQnt: credits.qnt!.gbpPerQnt,
      rateAt: credits.qnt!.rateAt,
    });
    // The documents say it too.
    const csv = await get(t, `/user/invoice/${credits.invoiceId}/csv`, user);
    expect(csv.body).toContain('GBP per QNT');
  });

  it('an order paid by bank transfer has no QNT amount', async () => {
    const { user, order } = await paidPlanCustomer(t, await administrator(t));
    expect((await invoiceOf(t, user, order.invoiceId)).qnt).toBeNull();
  });
});
