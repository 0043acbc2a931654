import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZClaim, type TClaim, type TClaimRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { claimHistoryKey } from './get-claim-history.ts';
import { getOptinsQueryOptions } from './get-optins.ts';

/**
 * POST /reward {address, qnt, idempotencyKey}: claims QNT of the reward balance to an Ethereum address. The
 * amount is held at once (taken from the balance, shown as held until paid); the answer is the
 * claim with its tracking code. Refusals: CLAIM_ABOVE_BALANCE, CLAIM_BELOW_MINIMUM,
 * REWARDS_NEED_QNT_PLAN, or a field's reason (invalidParams).
 */
export function createClaim(claim: TClaimRequest): Promise<TClaim> {
  return api.campaign.post('/reward', claim, { schema: ZClaim });
}

export function useCreateClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClaim,
    // Made or refused, the balance is read again: a refusal for the balance means it changed.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getOptinsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: claimHistoryKey }),
      ]),
  });
}
