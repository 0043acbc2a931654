import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidateAfterClaimAction } from './invalidate-rewards.ts';

/**
 * POST /api/campaign/management/reward/claims/{id}/pay (management-admin): sends the claim's QNT
 * from the treasury. The claim turns PAYING at once and COMPLETED once the chain has confirmed the
 * transfer (the list and the dialog poll until then); 409 CLAIM_NOT_PENDING when it was already
 * paid, is being paid or was rejected.
 */
export async function payClaim(claimId: string): Promise<void> {
  await api.campaign.post(`/management/reward/claims/${encodeURIComponent(claimId)}/pay`);
}

export function usePayClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: payClaim,
    onSuccess: () => invalidateAfterClaimAction(queryClient),
  });
}
