import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZManagementPrivateNetwork,
  type TManagementPrivateNetwork,
  type TPrivateNetworkReviewRequest,
} from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { auditLogKey } from './get-audit-log.ts';
import { privateNetworkReviewsKey } from './get-private-network-reviews.ts';

export type ReviewPrivateNetwork = { id: string } & TPrivateNetworkReviewRequest;

/**
 * PUT /api/integrate/management/private-networks/{id}/review (management-admin): APPROVE or REJECT
 * (the reason in `note`, required) a network under review, or COMPLETE_REMOVAL of one whose
 * removal was requested. A network no longer in that status answers 409 NETWORK_NOT_UNDER_REVIEW
 * or NETWORK_NOT_REMOVABLE (another staff member decided first).
 */
export function reviewPrivateNetwork({ id, ...body }: ReviewPrivateNetwork): Promise<TManagementPrivateNetwork> {
  return api.integrate.put(`/management/private-networks/${encodeURIComponent(id)}/review`, body, {
    schema: ZManagementPrivateNetwork,
  });
}

/** The lists, their counts and the open network, and the audit log: after a decision, and after a refused one (it is stale). */
export function invalidateAfterReview(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: privateNetworkReviewsKey }),
    queryClient.invalidateQueries({ queryKey: auditLogKey }),
  ]);
}

export function useReviewPrivateNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewPrivateNetwork,
    // Returned, so the dialog stays busy until the list shows the decision.
    onSuccess: () => invalidateAfterReview(queryClient),
  });
}
