import { describe, expect, it } from 'vitest';
import type { Database } from '@connect/db';
import { liveHubOf } from '../connect/index.ts';
import { waitForSettlement } from './card-settlement-wait.ts';

/** A database of its own for each test (the hub is per database); publishing runs one statement. */
const newDb = () => ({ execute: async () => ({ rows: [] }) }) as unknown as Database;
const order = { accountId: 'account-1', orderId: 'order-1' };

describe('a card confirmation waiting for its order to be settled', () => {
  it('wakes on the order’s settlement event, long before its bound, and stops listening', async () => {
    const db = newDb();
    const hub = liveHubOf(db);
    let reads = 0;
    const waiting = waitForSettlement(
      db,
      order,
      async () => {
        reads++;
        return 'AWAITING_PAYMENT';
      },
      600_000,
    );
    await expect.poll(() => hub.size).toBe(1);
    await hub.publish(db, 'account-1', { type: 'order.paid', orderId: 'order-1' });
    await waiting;
    // One read, after listening: no polling while it waits.
    expect(reads).toBe(1);
    expect(hub.size).toBe(0);
  });

  it('ignores other orders and accounts and a part payment; answers what it knows at its bound', async () => {
    const db = newDb();
    const hub = liveHubOf(db);
    let settled = false;
    const waiting = waitForSettlement(db, order, async () => 'AWAITING_PAYMENT', 200).then(() => (settled = true));
    await expect.poll(() => hub.size).toBe(1);
    await hub.publish(db, 'account-1', { type: 'order.paid', orderId: 'order-2' });
    await hub.publish(db, 'account-2', { type: 'order.paid', orderId: 'order-1' });
    await hub.publish(db, 'account-1', { type: 'order.payment_received', orderId: 'order-1' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await waiting;
    expect(hub.size).toBe(0);
  });

  it('does not wait for an order settled before it listened (or cancelled meanwhile)', async () => {
    const db = newDb();
    await waitForSettlement(db, order, async () => 'PAID', 600_000);
    const cancelled = waitForSettlement(db, order, async () => 'AWAITING_PAYMENT', 600_000);
    await expect.poll(() => liveHubOf(db).size).toBe(1);
    await liveHubOf(db).publish(db, 'account-1', { type: 'order.cancelled', orderId: 'order-1' });
    await cancelled;
  });
});
