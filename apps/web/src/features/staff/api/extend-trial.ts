import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZTrialExtension, type TTrialExtension, type TTrialExtensionRequest } from '@connect/shared';
import { api } from '../../../lib/api.ts';
import { invalidateAfterPlanChange } from './invalidate.ts';

export type ExtendTrial = { accountId: string } & TTrialExtensionRequest;

/**
 * POST /api/account-plan/management/accounts/{accountId}/trial-extension (management-sales): moves
 * the trial's end `days` later (from today when it has ended) through the plan's own transition,
 * audited with the reason. An account whose plan is not the trial answers 409
 * TRIAL_NOT_EXTENDABLE; an unknown one 404.
 */
export function extendTrial({ accountId, days, reason }: ExtendTrial): Promise<TTrialExtension> {
  return api.accountPlan.post(
    `/management/accounts/${encodeURIComponent(accountId)}/trial-extension`,
    { days, reason },
    { schema: ZTrialExtension },
  );
}

export function useExtendTrial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: extendTrial,
    // Returned, so the dialog stays busy until the list shows the new expiry.
    onSuccess: () => invalidateAfterPlanChange(queryClient),
  });
}
