import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { invalidateAfterClaimAction } from './invalidate-rewards.ts';

export type RejectClaim = { claimId: string; reason: string };

/**
 * POST /api/campaign/management/reward/claims/{id}/reject (management-admin): refuses a pending
 * claim with a reason the customer is told; the held QNT returns to their reward balance.
 */
export async function rejectClaim({ claimId, reason }: RejectClaim): Promise<void> {
  await api.campaign.post(`/management/reward/claims/${encodeURIComponent(claimId)}/reject`, { reason });
}

export function useRejectClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectClaim,
    onSuccess: () => invalidateAfterClaimAction(queryClient),
  });
}
