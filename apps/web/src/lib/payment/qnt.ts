import type { TQntPayment } from '@connect/shared';

/*
 * What the screens decide from the QNT side of an order (BTCPay Server's states: New → Processing →
 * Settled, or Expired / Invalid, with PaidPartial, PaidOver or PaidLate beside them).
 */

/** Whether the payment can still move on by itself (the page keeps watching it). */
export function isQntUnderway(qnt: Pick<TQntPayment, 'status'>): boolean {
  return qnt.status === 'NEW' || qnt.status === 'PROCESSING';
}

const sumOf = (qnt: Pick<TQntPayment, 'transfers'>, status: TQntPayment['transfers'][number]['status']) =>
  qnt.transfers.filter((transfer) => transfer.status === status).reduce((sum, t) => sum + BigInt(t.amount), 0n);

/** The wei of the transfers the chain follower has seen and not yet confirmed. */
export function processingWei(qnt: Pick<TQntPayment, 'transfers'>): bigint {
  return sumOf(qnt, 'PROCESSING');
}

/**
 * What has arrived for the order: its confirmed transfers (`paid` is what the settlement took from
 * the balance, so it counts once it says more).
 */
export function receivedWei(qnt: Pick<TQntPayment, 'transfers' | 'paid'>): bigint {
  const confirmed = sumOf(qnt, 'CONFIRMED');
  const paid = BigInt(qnt.paid);
  return paid > confirmed ? paid : confirmed;
}

/**
 * What is still to send while the quote runs: the amount due, less what has arrived and what is
 * on its way. A partial payment waits for the rest as PROCESSING with PAID_PARTIAL beside it.
 */
export function outstandingWei(qnt: TQntPayment): bigint {
  if (!isQntUnderway(qnt)) return 0n;
  const rest = BigInt(qnt.amountDue) - receivedWei(qnt) - processingWei(qnt);
  return rest > 0n ? rest : 0n;
}

/** Whether the payment waits for the rest of a partial payment (nothing more on its way). */
export function isAwaitingRest(qnt: TQntPayment): boolean {
  return qnt.status === 'PROCESSING' && qnt.reason === 'PAID_PARTIAL' && processingWei(qnt) === 0n;
}

/**
 * Whether the order may still be withdrawn: not while a transfer is moving on the chain, nor once
 * settled or invalid. What has arrived stays held for the customer.
 */
export function canWithdraw(qnt: TQntPayment): boolean {
  if (qnt.status === 'NEW' || qnt.status === 'EXPIRED') return true;
  return qnt.status === 'PROCESSING' && processingWei(qnt) === 0n;
}

/**
 * The transfers this browser's wallet sent for an order, until the chain follower lists them: a
 * page reloaded in between must not offer to pay a second time. Kept for the browser session.
 */
export const sentTransfers = {
  key: (orderId: string) => `connect.qnt.sent.${orderId}`,
  of(orderId: string): string[] {
    try {
      const list: unknown = JSON.parse(sessionStorage.getItem(this.key(orderId)) ?? '[]');
      return Array.isArray(list) ? list.filter((hash): hash is string => typeof hash === 'string') : [];
    } catch {
      return [];
    }
  },
  add(orderId: string, txHash: string): void {
    sessionStorage.setItem(this.key(orderId), JSON.stringify([...new Set([...this.of(orderId), txHash])]));
  },
  /** The sent transfers the follower does not list yet (compared without case: hashes are hex). */
  unseen(orderId: string, qnt: Pick<TQntPayment, 'transfers'>): string[] {
    const seen = new Set(qnt.transfers.map((transfer) => transfer.txHash.toLowerCase()));
    return this.of(orderId).filter((hash) => !seen.has(hash.toLowerCase()));
  },
};
