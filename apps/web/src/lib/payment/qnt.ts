import type { TQntPayment } from '@connect/shared';

/*
 * What the screens decide from the QNT side of an order (BTCPay Server's states: New → Processing →
 * Settled, or Expired / Invalid, with PaidPartial, PaidOver or PaidLate beside them).
 */

/** Whether the payment can still move on by itself (the page keeps watching it). */
export function isQntUnderway(qnt: Pick<TQntPayment, 'status'>): boolean {
  return qnt.status === 'NEW' || qnt.status === 'PROCESSING';
}

/** The wei of the transfers the chain follower has seen and not yet confirmed. */
export function processingWei(qnt: Pick<TQntPayment, 'transfers'>): bigint {
  return qnt.transfers
    .filter((transfer) => transfer.status === 'PROCESSING')
    .reduce((sum, transfer) => sum + BigInt(transfer.amount), 0n);
}

/**
 * What is still to send: the amount due, less what already counts for the order and what is on
 * its way. Nothing once the quote has ended (expired, invalid or settled).
 */
export function outstandingWei(qnt: TQntPayment): bigint {
  if (qnt.status !== 'NEW') return 0n;
  const rest = BigInt(qnt.amountDue) - BigInt(qnt.paid) - processingWei(qnt);
  return rest > 0n ? rest : 0n;
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
