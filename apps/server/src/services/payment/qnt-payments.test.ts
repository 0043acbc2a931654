import { eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, orders, qntPayments as qntPaymentsTable } from '@connect/db';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { ZOrder, ZQntPayment, type TOrder } from '@connect/shared';
import type { TestChain } from '../../../test/chains.ts';
import { signInAs, type TestContext } from '../../../test/helpers.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import {
  bundleOf,
  customer,
  planByCode,
  planOrder,
  post,
  subscriptionOf,
  trackOrder,
  type Session,
} from '../account-plan/test-support.ts';
import { followQnt, sendQnt, startQntTestApp, stopQntTestApp } from './test-support.ts';

// One chain with the QNT token, one app taking QNT on it; the follower is stepped by hand (the
// job runs it in production), so each test decides when blocks are seen and confirmed.
const CONFIRMATIONS = 3;
const QNT = 10n ** 18n;
const payer = DEV_ACCOUNTS[1]!.address as Hex;

let chain: TestChain;
let token: Hex;
let t: TestContext;

beforeAll(async () => {
  ({ chain, token, t } = await startQntTestApp({ QNT_CONFIRMATIONS: String(CONFIRMATIONS), QNT_GBP_PRICE: '80' }));
}, 60_000);

afterAll(() => stopQntTestApp(t, chain));

const follow = () => followQnt(t);
const mine = (blocks: number) => rpcCall(chain.rpcUrl, 'anvil_mine', [`0x${blocks.toString(16)}`]);

/** The payer sends `amount` wei of QNT to `to` (mined at once: anvil's automine). */
const pay = (to: string, amount: bigint) => sendQnt(chain, token, payer, to, amount);

async function annualInQnt(session: Session, extra: Record<string, unknown> = {}): Promise<TOrder> {
  const plan = await planByCode(t, 'annual-standard');
  const res = await post(t, '/order/plan', session, planOrder(plan.id, { paymentMethod: 'QNT', ...extra }));
  expect(res.statusCode, res.body).toBe(200);
  return ZOrder.parse(res.json());
}

const track = (session: Session, orderId: string) => trackOrder(t, session, orderId);
const subscription = (session: Session) => subscriptionOf(t, session);

const held = async (session: Session) => BigInt((await subscription(session)).qnt!.held);

describe('QNT payments', () => {
  it('offers QNT, quotes the order in QNT at the configured price and gives the account its own address', async () => {
    const session = await customer(t);
    const sub = await subscription(session);
    expect(sub.availablePaymentMethods).toEqual(['QNT', 'FIAT', 'BANK_TRANSFER']);
    expect(sub.qnt).toMatchObject({ held: '0', chainId: chain.chainId });
    const address = sub.qnt!.depositAddress!;

    const order = await annualInQnt(session);
    expect(order.status).toBe('AWAITING_PAYMENT');
    // £6,000 at £80 a QNT is 75 QNT.
    expect(order.qnt).toMatchObject({
      status: 'NEW',
      reason: null,
      depositAddress: address,
      tokenAddress: token.toLowerCase(),
      chainId: chain.chainId,
      amountDue: (75n * QNT).toString(),
      gbpPerQnt: '80',
      paid: '0',
      transfers: [],
    });
    // For good: the same address again, another account another one.
    expect((await subscription(session)).qnt!.depositAddress).toBe(address);
    const other = await customer(t);
    expect((await subscription(other)).qnt!.depositAddress).not.toBe(address);
  });

  it('gives an address in the order’s own transaction when the customer’s first act is a QNT order', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    expect(order.qnt!.depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect((await subscription(session)).qnt!.depositAddress).toBe(order.qnt!.depositAddress);
  });

  it('sees a transfer as PROCESSING, confirms it after the confirmations and settles the order: the plan is ACTIVE', async () => {
    const session = await customer(t);
    const plan = await planByCode(t, 'annual-standard');
    const bundle = await bundleOf(t, plan.id, 1_000);
    const order = await annualInQnt(session, { creditBundleId: bundle.id });
    const due = BigInt(order.qnt!.amountDue);

    const hash = await pay(order.qnt!.depositAddress, due);
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/payment/confirm-payment',
      headers: session.headers,
      payload: { orderId: order.id, txHash: hash },
    });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(ZQntPayment.parse(reported.json()).status).toBe('NEW'); // the follower decides, not the wallet

    await follow();
    let tracked = await track(session, order.id);
    expect(tracked.qnt).toMatchObject({ status: 'PROCESSING', transfers: [{ txHash: hash, status: 'PROCESSING' }] });
    expect(tracked.qnt!.transfers[0]!.confirmations).toBe(1);
    expect(tracked.status).toBe('AWAITING_PAYMENT');

    await mine(CONFIRMATIONS - 1);
    await follow();
    tracked = await track(session, order.id);
    expect(tracked.status).toBe('PAID');
    expect(tracked.qnt).toMatchObject({ status: 'SETTLED', reason: null, paid: due.toString() });
    expect(tracked.qnt!.transfers[0]).toMatchObject({ status: 'CONFIRMED', confirmations: CONFIRMATIONS });
    const sub = await subscription(session);
    expect(sub.status).toBe('ACTIVE');
    expect(sub.plan.name).toBe(plan.name);
    expect(sub.credits.available).toBeGreaterThanOrEqual(1_000);
    expect(sub.qnt!.held).toBe('0');

    // The ledger: the transfer paid in, the order took it — each once, however often it is followed.
    await follow();
    await follow();
    const entries = await t.db.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, session.accountId));
    const qntEntries = entries.filter((e) => e.asset === 'QNT').map((e) => [e.kind, e.amount]);
    expect(qntEntries).toEqual([
      ['payment', due],
      ['consume', -due],
    ]);
  });

  it('holds an over-payment for the customer (PAID_OVER) and settles the next order from it without a transfer', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    const due = BigInt(order.qnt!.amountDue);
    await pay(order.qnt!.depositAddress, due + 200n * QNT);
    await mine(CONFIRMATIONS);
    await follow();
    const tracked = await track(session, order.id);
    expect(tracked.qnt).toMatchObject({ status: 'SETTLED', reason: 'PAID_OVER' });
    expect(await held(session)).toBe(200n * QNT);
  });

  it('keeps a partial payment waiting (PAID_PARTIAL) and settles once the rest arrives', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    const due = BigInt(order.qnt!.amountDue);
    await pay(order.qnt!.depositAddress, due / 2n);
    await mine(CONFIRMATIONS);
    await follow();
    let tracked = await track(session, order.id);
    expect(tracked.status).toBe('AWAITING_PAYMENT');
    expect(tracked.qnt).toMatchObject({ status: 'PROCESSING', reason: 'PAID_PARTIAL', paid: '0' });
    expect(await held(session)).toBe(due / 2n);

    await pay(order.qnt!.depositAddress, due - due / 2n);
    await mine(CONFIRMATIONS);
    await follow();
    tracked = await track(session, order.id);
    expect(tracked.status).toBe('PAID');
    expect(tracked.qnt!.status).toBe('SETTLED');
    expect(await held(session)).toBe(0n);
  });

  it('settles an under-payment within the tolerance (0.5 %)', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    const due = BigInt(order.qnt!.amountDue);
    await pay(order.qnt!.depositAddress, due - due / 400n); // 0.25 % short
    await mine(CONFIRMATIONS);
    await follow();
    expect((await track(session, order.id)).status).toBe('PAID');
  });

  it('expires a quote that ran out; a late payment settles at a new quote (PAID_LATE)', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    await t.db.db
      .update(qntPaymentsTable)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(qntPaymentsTable.orderId, order.id));
    expect((await track(session, order.id)).qnt!.status).toBe('EXPIRED');
    await follow();
    const [stored] = await t.db.db.select().from(qntPaymentsTable).where(eq(qntPaymentsTable.orderId, order.id));
    expect(stored!.status).toBe('EXPIRED');

    await pay(order.qnt!.depositAddress, BigInt(order.qnt!.amountDue));
    await mine(CONFIRMATIONS);
    await follow();
    const tracked = await track(session, order.id);
    expect(tracked.status).toBe('PAID');
    expect(tracked.qnt).toMatchObject({ status: 'SETTLED', reason: 'PAID_LATE' });
    expect(new Date(tracked.qnt!.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('forgets a transfer whose block was replaced, and credits it once when it is mined again', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    const snapshot = await rpcCall<Hex>(chain.rpcUrl, 'evm_snapshot', []);
    const hash = await pay(order.qnt!.depositAddress, BigInt(order.qnt!.amountDue));
    await follow();
    expect((await track(session, order.id)).qnt!.status).toBe('PROCESSING');

    // The block with the transfer is replaced by two empty ones: the transfer is gone.
    await rpcCall(chain.rpcUrl, 'evm_revert', [snapshot]);
    await mine(2);
    await follow();
    let tracked = await track(session, order.id);
    expect(tracked.qnt).toMatchObject({ status: 'NEW', transfers: [{ txHash: hash, status: 'REORGED' }] });

    // The same transaction is mined again (a wallet resends it): processing, then settled once.
    const again = await pay(order.qnt!.depositAddress, BigInt(order.qnt!.amountDue));
    await mine(CONFIRMATIONS);
    await follow();
    tracked = await track(session, order.id);
    expect(tracked.status).toBe('PAID');
    const credited = await t.db.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, session.accountId));
    expect(credited.filter((e) => e.asset === 'QNT' && e.kind === 'payment').map((e) => e.reference)).toEqual([
      expect.stringContaining(again.toLowerCase()),
    ]);
  });

  it('refuses a reported transaction that does not pay the order’s address, and other accounts’ orders', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    const elsewhere = await pay('0x000000000000000000000000000000000000dead', QNT);
    const confirm = (s: Session, body: object) =>
      t.app.inject({ method: 'POST', url: '/api/payment/confirm-payment', headers: s.headers, payload: body });
    const invalid = await confirm(session, { orderId: order.id, txHash: elsewhere });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toMatchObject({ code: 'QNT_PAYMENT_INVALID' });

    const other = await customer(t);
    const foreign = await confirm(other, { orderId: order.id, txHash: elsewhere });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    expect((await confirm(session, { orderId: order.id, txHash: '0x12' })).statusCode).toBe(400);
    expect((await confirm(session, { orderId: 'nope', txHash: elsewhere })).statusCode).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/payment/confirm-payment',
      payload: { orderId: order.id, txHash: elsewhere },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('withdrawing a QNT order makes its payment INVALID; what arrives later stays held', async () => {
    const session = await customer(t);
    const order = await annualInQnt(session);
    const cancelled = await post(t, `/order/${order.id}/cancel`, session, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(ZOrder.parse(cancelled.json()).qnt!.status).toBe('INVALID');
    await pay(order.qnt!.depositAddress, 5n * QNT);
    await mine(CONFIRMATIONS);
    await follow();
    expect(await held(session)).toBe(5n * QNT);
    const [row] = await t.db.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.status).toBe('CANCELLED');
  });

  it('staff read an account’s deposit address and the address totals; customers cannot', async () => {
    const session = await customer(t);
    const address = (await subscription(session)).qnt!.depositAddress;
    const admin = await signInAs(t, { role: 'QUANT_ADMIN' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/payment/management/account/${session.accountId}/eth-address`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ accountId: session.accountId, address, held: '0' });

    const stats = await t.app.inject({
      method: 'GET',
      url: '/api/payment/management/eth-address-stats?page=0&size=1',
      headers: admin.headers,
    });
    expect(stats.statusCode).toBe(200);
    const { totalAddresses, totalUnallocatedAddresses } = stats.json() as {
      totalAddresses: number;
      totalUnallocatedAddresses: number;
    };
    // Every account these tests made has its address; the pool holds the rest of a derived batch.
    expect(totalAddresses - totalUnallocatedAddresses).toBeGreaterThanOrEqual(3);
    expect(totalUnallocatedAddresses).toBeGreaterThanOrEqual(0);

    const unknown = await t.app.inject({
      method: 'GET',
      url: `/api/payment/management/account/${crypto.randomUUID()}/eth-address`,
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
    for (const url of [
      `/api/payment/management/account/${session.accountId}/eth-address`,
      '/api/payment/management/eth-address-stats',
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: session.headers })).statusCode).toBe(403);
    }
  });
});
