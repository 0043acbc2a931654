import { REWARD_LIMITS, REWARD_MESSAGES, ZClaimAddress, ZQntAmount, qntToWei } from '@connect/shared';
import { z } from 'zod';
import { weiOf } from '../format.ts';

/** What the claim form needs of the reward state: the balance and the smallest claim (QNT strings). */
export type ClaimBounds = { balance: string; minClaim: string };

/**
 * The claim form (spec §3 Claim form, §5): the address as POST /reward validates it (ZClaimAddress:
 * required, 0x and 42 characters, all lower case accepted, mixed case only with its checksum), the
 * amount as ZQntAmount (more than 0, at most 18 decimals) and, here, never more than the balance
 * nor less than the smallest claim. The server checks the bounds again against the ledger.
 */
export function claimFormSchema({ balance, minClaim }: ClaimBounds) {
  const balanceWei = weiOf(balance);
  const minWei = weiOf(minClaim);
  return z.object({
    address: ZClaimAddress,
    qnt: ZQntAmount.superRefine((text, ctx) => {
      const wei = qntToWei(text);
      // Not an amount at all: ZQntAmount has said why.
      if (wei === null || wei <= 0n) return;
      if (wei > balanceWei) ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.amountAboveBalance(balance) });
      else if (wei < minWei) ctx.addIssue({ code: 'custom', message: REWARD_MESSAGES.amountBelowMinimum(minClaim) });
    }),
  });
}
export type ClaimForm = z.input<ReturnType<typeof claimFormSchema>>;
export type ClaimValues = z.output<ReturnType<typeof claimFormSchema>>;

/** Spec §9: 2 QNT, or the whole balance when it is smaller. */
export function defaultClaimAmount(balance: string): string {
  return weiOf(balance) < weiOf(REWARD_LIMITS.defaultClaimQnt) ? balance : REWARD_LIMITS.defaultClaimQnt;
}
