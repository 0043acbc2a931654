import type { Database } from '@connect/db';
import { weiToQnt } from '@connect/shared';
import type { RewardClaimFacts } from '../../events/catalogue.ts';
import type { EventBus } from '../../events/port.ts';
import type { ClaimRecord, ClaimRow } from './claim-repository.ts';

/*
 * What a customer is told of their claim (issue 34 §3: "an email and a bell notice at each step"):
 * received, paid, rejected. Each is a domain event emitted in the transaction of the step, so the
 * notice exists if and only if the step does; the connect service writes the bell's notice to the
 * claimant (every member once they have left the account) and emails it whatever their email
 * setting (services/connect/notification-subscribers.ts), once per event and recipient.
 */

function factsOf(claim: ClaimRow): RewardClaimFacts {
  return {
    accountId: claim.accountId,
    userId: claim.userId,
    claimId: claim.id,
    trackingCode: claim.trackingCode,
    amount: weiToQnt(claim.amountWei),
    address: claim.address,
  };
}

/** The claim was made (PENDING, its amount held). */
export function announceReceived(events: EventBus, tx: Database, claim: ClaimRow): Promise<string> {
  return events.emit(tx, 'reward.claim_received', factsOf(claim));
}

/** The claim's transfer is mined with its confirmations (COMPLETED). */
export function announcePaid(events: EventBus, tx: Database, claim: ClaimRecord): Promise<string> {
  return events.emit(tx, 'reward.claim_paid', {
    ...factsOf(claim),
    txHash: claim.txHash ?? '',
    networkName: claim.networkName,
  });
}

/** Staff rejected the claim (its amount is back in the balance). */
export function announceRejected(events: EventBus, tx: Database, claim: ClaimRow, reason: string): Promise<string> {
  return events.emit(tx, 'reward.claim_rejected', { ...factsOf(claim), reason });
}
