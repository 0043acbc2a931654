import { and, eq } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, mailOutbox, notifications, qntTransfers, staffAlerts, users } from '@connect/db';
import { DEV_ACCOUNTS } from '@connect/devchain';
import { ZOrder, ZStaffAlert, ZStaffAlertsResponse } from '@connect/shared';
import type { TestChain } from '../../../test/chains.ts';
import type { TestContext } from '../../../test/helpers.ts';
import { windowSize } from '../../adapters/chains/follower/index.ts';
import { rpcCall } from '../../adapters/chains/rpc.ts';
import {
  administrator,
  bundleOf,
  customer,
  planByCode,
  planOrder,
  post,
  subscriptionOf,
  trackOrder,
  type Session,
} from '../account-plan/test-support.ts';
import { qntPayments } from './index.ts';
import { followQnt, sendQnt, startQntTestApp, stopQntTestApp } from './test-support.ts';

/*
 * Issue 27 §4: a chain that takes back blocks with confirmed, credited QNT transfers (evm_revert
 * past them, as a local chain restarted from its last saved state does). The follower's
 * confirmed-block-lost hook marks them; a transfer mined again on the new chain keeps its credit,
 * one that is not is taken back through the ledger once the new chain is confirmed past the old
 * height; the order it paid waits for its payment again; the customer and staff are told.
 */
const CONFIRMATIONS = 3;
const QNT = 10n ** 18n;
const payer = DEV_ACCOUNTS[2]!.address as Hex;

let chain: TestChain;
let token: Hex;
let t: TestContext;

beforeAll(async () => {
  ({ chain, token, t } = await startQntTestApp({
    QNT_CONFIRMATIONS: String(CONFIRMATIONS),
    QNT_GBP_PRICE: '80',
    STAFF_ALERT_EMAIL: 'alerts@staff.test',
  }));
}, 60_000);

afterAll(() => stopQntTestApp(t, chain));

const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);

/** One follower step with the app's hooks (the app's own chain-follow job may step first), then the subscribers. */
const follow = () => followQnt(t, { onConfirmedBlockLost: t.app.deps.followers.confirmedBlockLostHooks() });
const pay = async (to: string, amount: bigint) => (await sendQnt(chain, token, payer, to, amount)).toLowerCase() as Hex;

const track = (session: Session, orderId: string) => trackOrder(t, session, orderId);
const subscription = (session: Session) => subscriptionOf(t, session);
const qntEntries = async (accountId: string) =>
  (
    await t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.asset, 'QNT')))
      .orderBy(ledgerEntries.id)
  ).map((e) => ({ kind: e.kind, amount: e.amount, reference: e.reference }));

describe('QNT: confirmed blocks the chain takes back', () => {
  it('takes back the credit of a transfer the new chain lacks (once), keeps one mined again, reopens the order and tells the customer and staff', async () => {
    const session = await customer(t);
    const plan = await planByCode(t, 'annual-standard');
    const bundle = await bundleOf(t, plan.id, 1_000);
    const placed = await post(
      t,
      '/order/plan',
      session,
      planOrder(plan.id, { paymentMethod: 'QNT', creditBundleId: bundle.id }),
    );
    expect(placed.statusCode, placed.body).toBe(200);
    const order = ZOrder.parse(placed.json());
    const due = BigInt(order.qnt!.amountDue);
    const address = order.qnt!.depositAddress;
    await follow();

    // Two transfers, confirmed and credited: 5 QNT, held, then what pays the order.
    const snapshot = await rpc<Hex>('evm_snapshot');
    const kept = await pay(address, 5n * QNT);
    const lost = await pay(address, due);
    const keptRaw = await rpc<Hex>('eth_getRawTransactionByHash', [kept]);
    await mine(CONFIRMATIONS);
    await follow();
    expect((await track(session, order.id)).status).toBe('PAID');
    expect((await subscription(session)).status).toBe('ACTIVE');

    // The chain goes back before both (a local chain restarted from its last saved state); the
    // second transfer is mined again (the same signed transaction), the first never is, and the
    // chain grows well past the old height.
    await rpc('evm_revert', [snapshot]);
    expect(await rpc<Hex>('eth_sendRawTransaction', [keptRaw])).toBe(kept);
    await mine(2 * CONFIRMATIONS + 4);
    await follow();
    await follow();

    const transfers = await t.db.db
      .select({ txHash: qntTransfers.txHash, status: qntTransfers.status, lostToBlock: qntTransfers.lostToBlock })
      .from(qntTransfers)
      .where(eq(qntTransfers.accountId, session.accountId));
    expect(new Map(transfers.map((row) => [row.txHash, [row.status, row.lostToBlock]]))).toEqual(
      new Map([
        [lost, ['REVERSED', null]],
        [kept, ['CONFIRMED', null]],
      ]),
    );
    // The ledger: each transfer credited once, the lost one taken back once; the order's QNT given
    // back when the order was put back to awaiting payment.
    const entries = await qntEntries(session.accountId);
    expect(entries.filter((e) => e.kind === 'payment').map((e) => [e.reference.split(':')[2], e.amount])).toEqual([
      [kept, 5n * QNT],
      [lost, due],
    ]);
    expect(entries.filter((e) => e.kind === 'reversal')).toEqual([
      { kind: 'reversal', amount: -due, reference: `qnt-reversal:${chain.chainId}:${lost}:0` },
    ]);
    expect((await subscription(session)).qnt!.held).toBe((5n * QNT).toString());

    // The order waits for its payment again; what it delivered is undone.
    const reopened = await track(session, order.id);
    expect(reopened.status).toBe('AWAITING_PAYMENT');
    expect(reopened.qnt).toMatchObject({
      paid: '0',
      transfers: expect.arrayContaining([expect.objectContaining({ txHash: lost, status: 'REORGED' })]),
    });
    const sub = await subscription(session);
    expect(sub.status).not.toBe('ACTIVE');

    // The customer: a notice in the bell and an email.
    const [member] = await t.db.db.select().from(users).where(eq(users.accountId, session.accountId));
    const bell = await t.db.db.select().from(notifications).where(eq(notifications.userId, member!.id));
    expect(bell.filter((n) => n.kind === 'qnt.reversed')).toEqual([
      expect.objectContaining({ title: 'A QNT payment was taken back', body: expect.stringContaining(lost) }),
    ]);
    // … and the plan's own notice: it waits for the order again.
    expect(bell.filter((n) => n.kind === 'plan.changed').map((n) => n.title)).toContain(
      'Your order is awaiting payment again',
    );
    const mails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member!.email));
    expect(mails.filter((m) => m.subject === 'A QNT payment was taken back')).toHaveLength(1);

    // Staff: one alert on the transfer, mailed to STAFF_ALERT_EMAIL.
    const alerts = await t.db.db.select().from(staffAlerts).where(eq(staffAlerts.code, 'QNT_TRANSFER_REVERSED'));
    expect(alerts).toEqual([
      expect.objectContaining({ recordType: 'qnt_transfer', message: expect.stringContaining(lost) }),
    ]);
    const staffMails = await t.db.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'alerts@staff.test'));
    expect(staffMails).toEqual([
      expect.objectContaining({ kind: 'STAFF_ALERT', subject: 'Staff alert: QNT_TRANSFER_REVERSED' }),
    ]);

    // Once: following on changes nothing.
    await mine(2);
    await follow();
    await follow();
    expect(await qntEntries(session.accountId)).toEqual(entries);
    expect(await t.db.db.select().from(staffAlerts)).toHaveLength(1);

    // Staff list the alert and acknowledge it; customers cannot.
    const admin = await administrator(t);
    const list = await t.app.inject({ method: 'GET', url: '/api/connect/management/alerts', headers: admin.headers });
    expect(list.statusCode, list.body).toBe(200);
    const [listed] = ZStaffAlertsResponse.parse(list.json()).alerts;
    expect(listed).toMatchObject({ code: 'QNT_TRANSFER_REVERSED', acknowledgedAt: null });
    expect(listed!.record).toEqual({ type: 'qnt_transfer', id: alerts[0]!.recordId });
    const url = `/api/connect/management/alerts/${listed!.id}/acknowledge`;
    expect((await t.app.inject({ method: 'POST', url, headers: session.headers })).statusCode).toBe(403);
    const acknowledged = await t.app.inject({ method: 'POST', url, headers: admin.headers });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(ZStaffAlert.parse(acknowledged.json())).toMatchObject({ acknowledgedBy: admin.sub });
    const open = await t.app.inject({ method: 'GET', url: '/api/connect/management/alerts', headers: admin.headers });
    expect(ZStaffAlertsResponse.parse(open.json()).alerts).toEqual([]);
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/connect/management/alerts?status=all',
      headers: admin.headers,
    });
    expect(ZStaffAlertsResponse.parse(all.json()).alerts).toHaveLength(1);

    // Paid again, the order takes QNT and buys its credits again (new references), once.
    await pay(address, due);
    await mine(CONFIRMATIONS);
    await follow();
    await follow();
    expect((await track(session, order.id)).status).toBe('PAID');
    expect((await subscription(session)).status).toBe('ACTIVE');
    const credits = await t.db.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, session.accountId), eq(ledgerEntries.asset, 'CREDIT')))
      .orderBy(ledgerEntries.id);
    expect(credits.filter((e) => e.reference.startsWith(`order:${order.id}`)).map((e) => [e.kind, e.amount])).toEqual([
      ['purchase', 1_000n],
      ['reversal', -1_000n],
      ['purchase', 1_000n],
    ]);
    expect((await subscription(session)).qnt!.held).toBe((5n * QNT).toString());
  });

  it('keeps the credit of a transfer mined again at another place in its block (its log index changed)', async () => {
    const session = await customer(t);
    const address = (await qntPayments(t.app.deps, t.app.log).addressFor(session.accountId)).address;
    await follow();
    const snapshot = await rpc<Hex>('evm_snapshot');
    const kept = await pay(address, 7n * QNT);
    const raw = await rpc<Hex>('eth_getRawTransactionByHash', [kept]);
    const logIndexOf = async (hash: Hex) =>
      Number((await rpc<{ logs: { logIndex: Hex }[] }>('eth_getTransactionReceipt', [hash])).logs[0]!.logIndex);
    expect(await logIndexOf(kept)).toBe(0);
    await mine(CONFIRMATIONS);
    await follow();
    expect((await subscription(session)).qnt!.held).toBe((7n * QNT).toString());
    const alertsBefore = await t.db.db.select().from(staffAlerts);

    // The chain goes back before it; on the new chain another transaction with a log (an approval)
    // comes first in the block that mines it again.
    await rpc('evm_revert', [snapshot]);
    await rpc('evm_setAutomine', [false]);
    try {
      const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [payer, 1n] });
      await rpc<Hex>('eth_sendTransaction', [
        {
          from: DEV_ACCOUNTS[3]!.address,
          to: token,
          data: approve,
          maxPriorityFeePerGas: '0x174876e800',
          maxFeePerGas: '0x2e90edd000',
        },
      ]);
      expect(await rpc<Hex>('eth_sendRawTransaction', [raw])).toBe(kept);
      await rpc('evm_mine');
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    expect(await logIndexOf(kept)).toBe(1);
    await mine(2 * CONFIRMATIONS + 4);
    await follow();
    await follow();

    // One transfer, confirmed in its new block and credited once; nothing taken back, nobody alerted.
    const transfers = await t.db.db.select().from(qntTransfers).where(eq(qntTransfers.accountId, session.accountId));
    expect(transfers.map((row) => [row.txHash, row.status, row.lostToBlock])).toEqual([[kept, 'CONFIRMED', null]]);
    const entries = await qntEntries(session.accountId);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([['payment', 7n * QNT]]);
    expect((await subscription(session)).qnt!.held).toBe((7n * QNT).toString());
    expect(await t.db.db.select().from(staffAlerts)).toHaveLength(alertsBefore.length);
    const [member] = await t.db.db.select().from(users).where(eq(users.accountId, session.accountId));
    const bell = await t.db.db.select().from(notifications).where(eq(notifications.userId, member!.id));
    expect(bell.filter((n) => n.kind === 'qnt.reversed')).toEqual([]);
  });

  it('takes back a credit whose block a reorg deeper than the follower window replaced, and alerts staff with the range', async () => {
    const session = await customer(t);
    const address = (await qntPayments(t.app.deps, t.app.log).addressFor(session.accountId)).address;
    await follow();
    const snapshot = await rpc<Hex>('evm_snapshot');
    const lost = await pay(address, 3n * QNT);
    await mine(CONFIRMATIONS);
    await follow();
    expect((await subscription(session)).qnt!.held).toBe((3n * QNT).toString());
    // The follower steps on until its window remembers no block from before the transfer.
    const window = windowSize(CONFIRMATIONS);
    for (let i = 0; i < 3; i++) {
      await mine(window + 5);
      await follow();
    }

    // The chain goes back before the transfer and grows past the old height without it.
    await rpc('evm_revert', [snapshot]);
    await mine(4 * (window + 5));
    await follow();
    await follow();

    const transfers = await t.db.db.select().from(qntTransfers).where(eq(qntTransfers.accountId, session.accountId));
    expect(transfers.map((row) => [row.txHash, row.status])).toEqual([[lost, 'REVERSED']]);
    expect((await qntEntries(session.accountId)).map((e) => [e.kind, e.amount])).toEqual([
      ['payment', 3n * QNT],
      ['reversal', -3n * QNT],
    ]);
    expect((await subscription(session)).qnt!.held).toBe('0');
    const [deep] = await t.db.db.select().from(staffAlerts).where(eq(staffAlerts.code, 'CHAIN_REORG_BEYOND_WINDOW'));
    expect(deep?.message).toMatch(/older than the qnt-deposits follower's window/);
    expect(deep?.message).toContain(`from block ${transfers[0]!.blockNumber} up (1)`);
    const reversed = await t.db.db.select().from(staffAlerts).where(eq(staffAlerts.code, 'QNT_TRANSFER_REVERSED'));
    expect(reversed.filter((a) => a.message.includes(lost))).toHaveLength(1);
  });

  it('gives a customer on a trial the trial back when the QNT that paid their plan is taken back (and again once the order is withdrawn)', async () => {
    const session = await customer(t);
    expect(await subscription(session)).toMatchObject({ status: 'ACTIVE', statusReason: 'TRIAL' });
    const plan = await planByCode(t, 'annual-standard');
    const placed = await post(t, '/order/plan', session, planOrder(plan.id, { paymentMethod: 'QNT' }));
    expect(placed.statusCode, placed.body).toBe(200);
    const order = ZOrder.parse(placed.json());
    await follow();
    const snapshot = await rpc<Hex>('evm_snapshot');
    await pay(order.qnt!.depositAddress, BigInt(order.qnt!.amountDue));
    await mine(CONFIRMATIONS);
    await follow();
    expect(await subscription(session)).toMatchObject({ status: 'ACTIVE', plan: { code: 'annual-standard' } });

    await rpc('evm_revert', [snapshot]);
    await mine(2 * CONFIRMATIONS + 4);
    await follow();
    await follow();
    expect((await track(session, order.id)).status).toBe('AWAITING_PAYMENT');
    // The trial is what they had: in service while the order waits for its payment.
    const back = await subscription(session);
    expect(back).toMatchObject({
      status: 'PENDING',
      statusReason: 'AWAITING_PAYMENT',
      inService: true,
      plan: { type: 'TRIAL' },
      periodEnd: null,
      pendingOrder: expect.objectContaining({ id: order.id }),
    });
    const withdrawn = await post(t, `/order/${order.id}/cancel`, session, {});
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await subscription(session)).toMatchObject({
      status: 'ACTIVE',
      statusReason: 'TRIAL',
      inService: true,
      plan: { type: 'TRIAL' },
    });
  });
});
