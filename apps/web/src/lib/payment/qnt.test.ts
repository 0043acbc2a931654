import { afterEach, describe, expect, it } from 'vitest';
import type { TOrder } from '@connect/shared';
import { QNT_ORDER, QNT_PAYMENT, TRANSFER, qnt } from '../../test/plans.ts';
import { ORDER } from '../../test/plans.ts';
import { QNT_TRACK_INTERVAL_MS, trackIntervalOf } from '../plans/api.ts';
import { canWithdraw, isAwaitingRest, isQntUnderway, outstandingWei, receivedWei, sentTransfers } from './qnt.ts';

describe('outstandingWei', () => {
  it('is the amount due while nothing has arrived', () => {
    expect(outstandingWei(QNT_PAYMENT)).toBe(BigInt(qnt(86)));
  });

  it('leaves out what has arrived and what is on its way; a partial payment waits for the rest while processing', () => {
    const confirmed = { ...TRANSFER, status: 'CONFIRMED' as const, amount: qnt(50), confirmations: 3 };
    const partial = {
      ...QNT_PAYMENT,
      status: 'PROCESSING' as const,
      reason: 'PAID_PARTIAL' as const,
      transfers: [confirmed],
    };
    expect(receivedWei(partial)).toBe(BigInt(qnt(50)));
    expect(outstandingWei(partial)).toBe(BigInt(qnt(36)));
    expect(isAwaitingRest(partial)).toBe(true);
    const moving = { ...partial, transfers: [confirmed, { ...TRANSFER, amount: qnt(30) }] };
    expect(outstandingWei(moving)).toBe(BigInt(qnt(6)));
    expect(isAwaitingRest(moving)).toBe(false);
    // A transfer dropped by a reorganisation no longer counts.
    expect(outstandingWei({ ...partial, transfers: [confirmed, { ...TRANSFER, status: 'REORGED' }] })).toBe(
      BigInt(qnt(36)),
    );
    // The whole amount on its way: nothing more to send.
    expect(outstandingWei({ ...QNT_PAYMENT, status: 'PROCESSING', transfers: [TRANSFER] })).toBe(0n);
  });

  it('is nothing once the quote has ended', () => {
    for (const status of ['SETTLED', 'EXPIRED', 'INVALID'] as const) {
      expect(outstandingWei({ ...QNT_PAYMENT, status })).toBe(0n);
    }
    expect(isQntUnderway(QNT_PAYMENT)).toBe(true);
    expect(isQntUnderway({ status: 'EXPIRED' })).toBe(false);
  });

  it('counts what the settlement took once it says more than the confirmed transfers', () => {
    expect(receivedWei({ transfers: [], paid: qnt(86) })).toBe(BigInt(qnt(86)));
  });
});

describe('canWithdraw', () => {
  it('lets an order go while nothing is moving on the chain, never once settled or invalid', () => {
    expect(canWithdraw(QNT_PAYMENT)).toBe(true);
    expect(canWithdraw({ ...QNT_PAYMENT, status: 'EXPIRED' })).toBe(true);
    expect(canWithdraw({ ...QNT_PAYMENT, status: 'PROCESSING', transfers: [TRANSFER] })).toBe(false);
    expect(canWithdraw({ ...QNT_PAYMENT, status: 'PROCESSING', reason: 'PAID_PARTIAL' })).toBe(true);
    expect(canWithdraw({ ...QNT_PAYMENT, status: 'SETTLED' })).toBe(false);
    expect(canWithdraw({ ...QNT_PAYMENT, status: 'INVALID' })).toBe(false);
  });
});

describe('sentTransfers', () => {
  afterEach(() => sessionStorage.clear());

  it('remembers what the wallet sent until the follower lists it, whatever the case of the hash', () => {
    sentTransfers.add(QNT_ORDER.id, TRANSFER.txHash.toUpperCase().replace('0X', '0x'));
    sentTransfers.add(QNT_ORDER.id, TRANSFER.txHash.toUpperCase().replace('0X', '0x'));
    expect(sentTransfers.of(QNT_ORDER.id)).toHaveLength(1);
    expect(sentTransfers.unseen(QNT_ORDER.id, QNT_PAYMENT)).toHaveLength(1);
    expect(sentTransfers.unseen(QNT_ORDER.id, { transfers: [TRANSFER] })).toEqual([]);
    expect(sentTransfers.of(ORDER.id)).toEqual([]);
  });
});

describe('trackIntervalOf', () => {
  const withStatus = (status: (typeof QNT_PAYMENT)['status']): TOrder => ({
    ...QNT_ORDER,
    qnt: { ...QNT_PAYMENT, status },
  });

  it('follows a QNT payment live while it is new or processing, and stops once it is settled or invalid', () => {
    expect(trackIntervalOf(withStatus('NEW'), 30_000)).toBe(QNT_TRACK_INTERVAL_MS);
    expect(trackIntervalOf(withStatus('PROCESSING'), 30_000)).toBe(QNT_TRACK_INTERVAL_MS);
    expect(trackIntervalOf(withStatus('SETTLED'), 30_000)).toBe(false);
    expect(trackIntervalOf(withStatus('INVALID'), 30_000)).toBe(false);
    // An expired quote may still see a late transfer: at the slow pace.
    expect(trackIntervalOf(withStatus('EXPIRED'), 30_000)).toBe(30_000);
  });

  it('tracks a bank transfer at its pace and nothing once paid or cancelled', () => {
    expect(trackIntervalOf(ORDER, 30_000)).toBe(30_000);
    expect(trackIntervalOf({ ...ORDER, status: 'PAID' }, 30_000)).toBe(false);
    expect(trackIntervalOf({ ...QNT_ORDER, status: 'CANCELLED' }, 30_000)).toBe(false);
    expect(trackIntervalOf(undefined, 30_000)).toBe(false);
  });
});
