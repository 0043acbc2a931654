import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@connect/db';
import type { ChainView, ConfirmedBlockLoss } from '../../adapters/chains/follower/index.ts';
import type { QntTransferFacts } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import { StaffAlertsRepository } from '../../repositories/staff-alerts.ts';
import { QntRepository, type QntTransferRow } from './qnt-repository.ts';

/*
 * Confirmed QNT transfers a chain takes back (issue 27 §4; docs/decisions/payments.md "Confirmed blocks
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
 *
 * A reorg deeper than the follower's window (`beyondWindow`): the fork may be anywhere below
 * `fromBlock`. The blocks of the transfers credited below it are checked against the chain, newest
 * first, down to the first the chain still has (every block before that one is unchanged too);
 * the transfers from the oldest replaced one up are marked, and staff are alerted with the range.
 */
export async function markLostTransfers(
  tx: Database,
  chainId: number,
  loss: ConfirmedBlockLoss,
  chain: ChainView,
  deps: { events: EventBus; alertsTo: string; log: Pick<FastifyBaseLogger, 'error'> },
): Promise<void> {
  const repo = new QntRepository(tx);
  let from = Number(loss.fromBlock);
  if (loss.beyondWindow) {
    for (const block of await repo.creditedBlocksBelow(chainId, from)) {
      if ((await chain.hashAt(BigInt(block.blockNumber)))?.toLowerCase() === block.blockHash) break;
      from = block.blockNumber;
    }
  }
  const lost = await repo.markLost(chainId, from, Number(loss.cursorWas));
  if (loss.beyondWindow) {
    await new StaffAlertsRepository(tx, deps.events).raise(
      {
        code: 'CHAIN_REORG_BEYOND_WINDOW',
        message:
          `The chain ${chainId} replaced blocks older than the ${loss.follower} follower's window: none of the ` +
          `blocks it remembers up to ${loss.cursorWas} is on the chain now, so the fork is before block ` +
          `${loss.fromBlock} and the follower reads again from there. The QNT transfers credited from block ` +
          `${from} up (${lost.length}) were checked against the new chain: those it does not have again are ` +
          'taken back once it is confirmed past the old height. Check the node and anything else read from ' +
          `this chain before block ${loss.fromBlock}.`,
        dedupeKey: `chain-reorg-beyond-window:${loss.follower}:${chainId}:${loss.fromBlock}:${loss.cursorWas}`,
      },
      deps.alertsTo,
    );
  }
  if (lost.length === 0) return;
  deps.log.error(
    {
      chainId,
      fromBlock: String(from),
      cursorWas: loss.cursorWas.toString(),
      beyondWindow: loss.beyondWindow,
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
