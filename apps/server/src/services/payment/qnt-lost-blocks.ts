import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { ConfirmedBlockLoss } from '../../adapters/chains/follower/index.ts';
import type { QntTransferFacts } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { StaffAlertsRepository } from '../../repositories/staff-alerts.ts';
import { QntRepository, type QntTransferRow } from './qnt-repository.ts';

/*
 * Confirmed QNT transfers a chain takes back (issue 27 §4; docs/decisions.md "Confirmed blocks
 * lost, and the staff-alert channel"). The follower's confirmed-block-lost hook marks them; the
 * follower reads the new chain; a transfer found there again keeps its credit (qnt-repository.ts
 * recordTransfers, then onConfirmed); one not found once the new chain is confirmed past the old
 * height is taken back here, in the follower's onConfirmed transaction.
 */

/** A transfer as the events tell it. */
export function transferFacts(t: QntTransferRow): QntTransferFacts {
  return {
    accountId: t.accountId,
    chainId: Number(t.chainId),
    txHash: t.txHash,
    logIndex: t.logIndex,
    blockNumber: Number(t.blockNumber),
    toAddress: t.toAddress,
    amount: t.amount.toString(),
  };
}

/** The reference of taking a transfer's credit back (once per credit: `…:<n>` after n reversals). */
const reversalReference = (t: Pick<QntTransferRow, 'chainId' | 'txHash' | 'logIndex' | 'reversals'>) =>
  `qnt-reversal:${t.chainId}:${t.txHash}:${t.logIndex}${t.reversals ? `:${t.reversals}` : ''}`;

/**
 * In the transaction that rewinds the follower: the confirmed transfers from `fromBlock` keep
 * their credit for now, marked as lost up to the old cursor (`lost_to_block`). Once: the rewind is
 * a compare-and-set of the cursor.
 */
export async function markLostTransfers(
  tx: Database,
  chainId: number,
  loss: ConfirmedBlockLoss,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<void> {
  const lost = await new QntRepository(tx).markLost(chainId, Number(loss.fromBlock), Number(loss.cursorWas));
  if (lost.length === 0) return;
  log.error(
    {
      chainId,
      fromBlock: loss.fromBlock.toString(),
      cursorWas: loss.cursorWas.toString(),
      transfers: lost.map((t) => t.txHash),
    },
    'the chain lost blocks with confirmed QNT transfers: those not mined again are taken back',
  );
}

/**
 * A credited transfer the chain lost for good: its credit is taken back through the ledger (the
 * balance may go below zero: a debt), the transfer is REVERSED, the customer is told
 * (`qnt.transfer_reversed`: the bell and an email; the account-plan service puts back the orders
 * the QNT paid) and staff are alerted (once per reversal: its ledger reference is the alert's
 * key), all in the follower's transaction.
 */
export async function reverseLostTransfer(
  tx: Database,
  repo: QntRepository,
  t: QntTransferRow,
  deps: { events: EventBus; alertsTo: string },
): Promise<void> {
  const reference = reversalReference(t);
  const taken = await repo.ledger.reverse(t.accountId, 'QNT', t.amount, {
    reason: `QNT taken back: the chain lost transaction ${t.txHash}`,
    reference,
  });
  await repo.markReversed(t.id);
  if (taken.outcome !== 'applied') return;
  await deps.events.emit(tx, 'qnt.transfer_reversed', {
    ...transferFacts(t),
    reference,
    balanceAfter: taken.balance.toString(),
  });
  const debt = taken.balance < 0n ? ': a debt' : '';
  await new StaffAlertsRepository(tx, deps.events).raise(
    {
      code: 'QNT_TRANSFER_REVERSED',
      message:
        `The chain ${t.chainId} lost the confirmed block of QNT transfer ${t.txHash} (log ${t.logIndex}, ` +
        `${t.amount} wei to ${t.toAddress}) and the new chain does not have it: its credit to account ` +
        `${t.accountId} was taken back (QNT balance now ${taken.balance} wei${debt}). ` +
        'Orders it paid are awaiting payment again.',
      record: { type: 'qnt_transfer', id: t.id },
      dedupeKey: reference,
    },
    deps.alertsTo,
  );
}
